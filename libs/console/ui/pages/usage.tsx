import { useMemo, useState } from 'preact/hooks';
import { Me, stats } from '../api';
import { TimeChart } from '../chart';
import { Empty, Show, useLoad } from '../ui';

interface UsageEntry {
  time_gte: string;
  clean: number;
  failed: number;
  concurrency: number;
  total_time: number;
  traffic: number;
}

const RANGES: [string, number, string][] = [
  ['last hour', 3600_000, 'max'],
  ['last day', 86_400_000, 'hour'],
  ['last week', 7 * 86_400_000, 'hour'],
  ['last 30 days', 30 * 86_400_000, 'day'],
];

/** Every page of the stats API for the range (it pages with `after`). */
async function usage(rangeMs: number, groupby: string, users: string): Promise<UsageEntry[]> {
  const entries: UsageEntry[] = [];
  let after = '';
  const start = new Date(Date.now() - rangeMs).toISOString();
  do {
    const page = await stats.get<{ results: UsageEntry[]; after: string }>({ start_date: start, groupby, limit: 10_000, after, users });
    entries.push(...page.results);
    after = page.after;
  } while (after);
  return entries;
}

/** The proxy's usage over time (the stats API, docs/proxy-stats.md): fetch and extraction workers fetch through the proxy, so their traffic is here under their users. */
export function UsagePage(props: { me: Me }) {
  const [range, setRange] = useState(0);
  const [users, setUsers] = useState('');
  const [, rangeMs, groupby] = RANGES[range];
  const loaded = useLoad(() => usage(rangeMs, groupby, users), [rangeMs, groupby, users]);
  return (
    <section>
      <h1>Proxy usage</h1>
      <div class="filters">
        <label class="field">
          <span>Range</span>
          <select name="range" value={range} onChange={(e) => setRange(Number((e.target as HTMLSelectElement).value))}>
            {RANGES.map(([label], i) => (
              <option key={label} value={i}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {props.me.admin && (
          <label class="field">
            <span>Keys (ids, comma list; empty: all)</span>
            <input name="users" value={users} onChange={(e) => setUsers((e.target as HTMLInputElement).value.trim())} />
          </label>
        )}
      </div>
      <Show loaded={loaded} label="Loading usage…">
        {(entries) => (entries.length === 0 ? <Empty>No proxy usage in this range.</Empty> : <UsageCharts entries={entries} rangeMs={rangeMs} />)}
      </Show>
    </section>
  );
}

function UsageCharts(props: { entries: UsageEntry[]; rangeMs: number }) {
  // The range the entries were read for, ending now (an hour with one bucket still spans the hour).
  const range = useMemo((): [number, number] => [(Date.now() - props.rangeMs) / 1000, Date.now() / 1000], [props.entries]);
  const charts = useMemo(() => {
    const times = props.entries.map((e) => Date.parse(e.time_gte) / 1000);
    const col = (f: keyof UsageEntry) => props.entries.map((e) => Number(e[f]));
    return {
      times,
      requests: [
        { label: 'clean', values: col('clean'), color: '#2a7' },
        { label: 'failed', values: col('failed'), color: '#c33' },
      ],
      traffic: [{ label: 'traffic (bytes)', values: col('traffic'), color: '#36c' }],
      concurrency: [{ label: 'concurrency (p80)', values: col('concurrency'), color: '#a6c' }],
    };
  }, [props.entries]);
  const totals = props.entries.reduce((t, e) => ({ clean: t.clean + e.clean, failed: t.failed + e.failed }), { clean: 0, failed: 0 });
  return (
    <div>
      <p>
        {totals.clean} clean and {totals.failed} failed requests.
      </p>
      <TimeChart title="Requests" times={charts.times} series={charts.requests} range={range} />
      <TimeChart title="Traffic" times={charts.times} series={charts.traffic} range={range} />
      <TimeChart title="Concurrency" times={charts.times} series={charts.concurrency} range={range} />
    </div>
  );
}
