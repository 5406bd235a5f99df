import { storage } from '../api';
import { Empty, Show, Table, useLoad } from '../ui';

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
          <Table
            rows={list}
            rowKey={(s) => `${s.frontier}/${s.slot}`}
            columns={[
              { header: 'Frontier', cell: (s) => s.frontier },
              { header: 'Slot', cell: (s) => s.slot },
              { header: 'Queued requests', class: 'num', cell: (s) => s.queued },
            ]}
          />
        )
      }
    </Show>
  );
}
