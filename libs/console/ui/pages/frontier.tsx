import { storage } from '../api';
import { Empty, Show, useLoad } from '../ui';

interface Slot {
  frontier: string;
  slot: string;
  queued: number;
}

async function frontierOf(project: number): Promise<Slot[]> {
  const frontiers = await storage.json<string[]>(`hcf/${project}/list`);
  const slots = await Promise.all(
    frontiers.map(async (frontier) => {
      const names = await storage.json<string[]>(`hcf/${project}/${encodeURIComponent(frontier)}/list`);
      return Promise.all(names.map(async (slot) => ({ frontier, slot, queued: (await storage.json<{ count: number }>(`hcf/${project}/${encodeURIComponent(frontier)}/s/${encodeURIComponent(slot)}/q/count`)).count })));
    }),
  );
  return slots.flat();
}

export function FrontierTab(props: { project: number }) {
  const slots = useLoad(() => frontierOf(props.project), [props.project]);
  return (
    <Show loaded={slots} label="Loading the crawl frontier…">
      {(list) =>
        list.length === 0 ? (
          <Empty>No crawl frontier in this project (frontiers appear when requests are added to a slot).</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Frontier</th>
                <th>Slot</th>
                <th>Queued requests</th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={`${s.frontier}/${s.slot}`}>
                  <td>{s.frontier}</td>
                  <td>{s.slot}</td>
                  <td class="num">{s.queued}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </Show>
  );
}
