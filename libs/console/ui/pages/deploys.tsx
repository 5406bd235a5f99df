import { useState } from 'preact/hooks';
import { dash } from '../api';
import { Empty, formatTime, Show, Table, useLoad } from '../ui';
import type { DashDeploy } from '@crawlhub/wire';

export function DeploysTab(props: { project: number }) {
  const deploys = useLoad(() => dash.get<{ deploys: DashDeploy[] }>('deploys/list.json', { project: props.project }), [props.project]);
  const [open, setOpen] = useState<number | null>(null);
  const spiders = useLoad(() => dash.get<{ spiders: { id: string; version: string | null }[] }>('spiders/list.json', { project: props.project }), [props.project]);
  return (
    <div>
      <h2>Deploys</h2>
      <Show loaded={deploys} label="Loading deploys…">
        {({ deploys: list }) =>
          list.length === 0 ? (
            <Empty>Nothing deployed: `shub deploy` builds a version (docs/move-from-scrapy-cloud.md); registered commands run without one.</Empty>
          ) : (
            <Table
              rows={list}
              rowKey={(d) => d.deploy_id}
              columns={[
                { header: '#', class: 'num', cell: (d) => d.deploy_id },
                { header: 'Version', cell: (d) => `${d.version}${d.current ? ' (current)' : ''}${d.deleted ? ' (deleted)' : ''}` },
                { header: 'State', cell: (d) => <span class={`state ${d.state}`}>{d.state}</span> },
                { header: 'Stack', cell: (d) => d.stack },
                { header: 'Spiders', cell: (d) => d.spiders.join(', ') },
                { header: 'Requested', cell: (d) => `${formatTime(d.requested_time)} by ${d.requested_by}` },
                { header: 'Built', cell: (d) => formatTime(d.built_time) },
                { header: 'Failure', cell: (d) => (d.failure ? <pre class="json">{d.failure}</pre> : '') },
                {
                  header: '',
                  cell: (d) => (
                    <button type="button" name="build-log" class="link" onClick={() => setOpen(open === d.deploy_id ? null : d.deploy_id)}>
                      {open === d.deploy_id ? 'Hide log' : 'Build log'}
                    </button>
                  ),
                },
              ]}
            />
          )
        }
      </Show>
      {open !== null && <BuildLog project={props.project} deployId={open} />}
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

/** The whole build log of one deploy (dash deploys/log.json), as its builder wrote it. */
function BuildLog(props: { project: number; deployId: number }) {
  const log = useLoad(() => dash.get<{ version: string; state: string; lines: string[] }>('deploys/log.json', { project: props.project, deploy_id: props.deployId }), [props.project, props.deployId]);
  return (
    <Show loaded={log} label="Loading the build log…">
      {({ version, state, lines }) => (
        <div class="build-log" data-deploy={props.deployId}>
          <h3>
            Build log of deploy {props.deployId} ({version}, {state})
          </h3>
          {lines.length === 0 ? <Empty>{state === 'building' ? 'No build log yet: waiting for a runner…' : 'The build wrote no log.'}</Empty> : <pre class="log">{lines.join('\n')}</pre>}
        </div>
      )}
    </Show>
  );
}
