import { dash } from '../api';
import { Empty, formatTime, Show, useLoad } from '../ui';

interface Deploy {
  deploy_id: number;
  version: string;
  stack: string;
  state: string;
  current: boolean;
  deleted: boolean;
  spiders: string[];
  failure: string | null;
  requested_time: string;
  built_time: string | null;
  requested_by: string;
}

export function DeploysTab(props: { project: number }) {
  const deploys = useLoad(() => dash.get<{ deploys: Deploy[] }>('deploys/list.json', { project: props.project }), [props.project]);
  const spiders = useLoad(() => dash.get<{ spiders: { id: string; version: string | null }[] }>('spiders/list.json', { project: props.project }), [props.project]);
  return (
    <div>
      <h2>Deploys</h2>
      <Show loaded={deploys} label="Loading deploys…">
        {({ deploys: list }) =>
          list.length === 0 ? (
            <Empty>Nothing deployed: `shub deploy` builds a version (docs/move-from-scrapy-cloud.md); registered commands run without one.</Empty>
          ) : (
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th>#</th>
                    <th>Version</th>
                    <th>State</th>
                    <th>Stack</th>
                    <th>Spiders</th>
                    <th>Requested</th>
                    <th>Built</th>
                    <th>Build log (failure)</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((d) => (
                    <tr key={d.deploy_id}>
                      <td class="num">{d.deploy_id}</td>
                      <td>
                        {d.version}
                        {d.current ? ' (current)' : ''}
                        {d.deleted ? ' (deleted)' : ''}
                      </td>
                      <td>
                        <span class={`state ${d.state}`}>{d.state}</span>
                      </td>
                      <td>{d.stack}</td>
                      <td>{d.spiders.join(', ')}</td>
                      <td>
                        {formatTime(d.requested_time)} by {d.requested_by}
                      </td>
                      <td>{formatTime(d.built_time)}</td>
                      <td>{d.failure ? <pre class="json">{d.failure}</pre> : ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Show>
      <h2>Spiders</h2>
      <Show loaded={spiders}>
        {({ spiders: list }) =>
          list.length === 0 ? (
            <Empty>No spiders yet.</Empty>
          ) : (
            <ul class="cards">
              {list.map((s) => (
                <li key={s.id}>
                  {s.id}
                  {s.version ? <small> {s.version}</small> : null}
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </div>
  );
}
