import { useMemo, useState } from 'preact/hooks';
import { dash, Me, stats } from '../api';
import { TimeChart } from '../chart';
import { Field } from '../forms';
import { Empty, Show, useLoad } from '../ui';
import type { UsageStatsEntry, WorkUsageEntry } from '@crawlhub/wire';

const RANGES: [string, number, string][] = [
  ['last hour', 3600_000, 'max'],
  ['last day', 86_400_000, 'hour'],
  ['last week', 7 * 86_400_000, 'hour'],
  ['last 30 days', 30 * 86_400_000, 'day'],
];

/** Every page of the stats API for the range (it pages with `after`). */
async function usage(rangeMs: number, groupby: string, users: string): Promise<UsageStatsEntry[]> {
  const entries: UsageStatsEntry[] = [];
  let after = '';
  const start = new Date(Date.now() - rangeMs).toISOString();
  do {
    const page = await stats.get<{ results: UsageStatsEntry[]; after: string }>({ start_date: start, groupby, limit: 10_000, after, users });
    entries.push(...page.results);
    after = page.after;
  } while (after);
  return entries;
}

/**
 * Usage over time: the proxy's (the stats API, docs/proxy-stats.md), the fetch API's and
 * the extraction API's (the dash API's usage/*.json); the admin key may name key ids.
 */
export function UsagePage(props: { me: Me }) {
  const [range, setRange] = useState(0);
  const [users, setUsers] = useState('');
  const [, rangeMs, groupby] = RANGES[range];
  const loaded = useLoad(() => usage(rangeMs, groupby, users), [rangeMs, groupby, users]);
  return (
    <section>
      <h1>Usage</h1>
      <div class="filters">
        <Field label="Range" name="range" value={String(range)} onInput={(v) => setRange(Number(v))} options={RANGES.map(([label], i) => [i, label])} />
        {props.me.admin && (
          <label class="field">
            <span>Keys (ids, comma list; empty: all)</span>
            <input name="users" value={users} onChange={(e) => setUsers((e.target as HTMLInputElement).value.trim())} />
          </label>
        )}
      </div>
      <h2>Proxy</h2>
      <Show loaded={loaded} label="Loading usage…">
        {(entries) => (entries.length === 0 ? <Empty>No proxy usage in this range.</Empty> : <UsageCharts entries={entries} rangeMs={rangeMs} />)}
      </Show>
      <WorkUsage api="fetch" title="Fetch API" rangeMs={rangeMs} groupby={groupby} users={users} series={[['fetches', 'fetches', '#36c'], ['renders', 'renders', '#a6c']]} chart="Fetches" />
      <WorkUsage api="extraction" title="Extraction API" rangeMs={rangeMs} groupby={groupby} users={users} series={[['queries', 'queries', '#2a7'], ['errors', 'errors', '#c33']]} chart="Extraction" />
    </section>
  );
}

/** The fetch or extraction API's usage (dash usage/<api>.json): one chart of its counters per interval. */
function WorkUsage(props: { api: 'fetch' | 'extraction'; title: string; chart: string; rangeMs: number; groupby: string; users: string; series: [string, string, string][] }) {
  const loaded = useLoad(
    () => dash.get<{ results: WorkUsageEntry[] }>(`usage/${props.api}.json`, { start_date: new Date(Date.now() - props.rangeMs).toISOString(), groupby: props.groupby, users: props.users }),
    [props.api, props.rangeMs, props.groupby, props.users],
  );
  return (
    <>
      <h2>{props.title}</h2>
      <Show loaded={loaded} label={`Loading ${props.title} usage…`}>
        {({ results }) => {
          if (results.length === 0) return <Empty>No {props.title} usage in this range.</Empty>;
          const totals = props.series.map(([field, label]) => `${results.reduce((n, e) => n + e[field], 0)} ${label}`).join(', ');
          return (
            <div>
              <p data-totals={props.api}>{totals}.</p>
              <TimeChart
                title={props.chart}
                times={results.map((e) => Date.parse(e.time_gte) / 1000)}
                series={props.series.map(([field, label, color]) => ({ label, color, values: results.map((e) => e[field]) }))}
                range={[(Date.now() - props.rangeMs) / 1000, Date.now() / 1000]}
              />
            </div>
          );
        }}
      </Show>
    </>
  );
}

function UsageCharts(props: { entries: UsageStatsEntry[]; rangeMs: number }) {
  // The range the entries were read for, ending now (an hour with one bucket still spans the hour).
  const range = useMemo((): [number, number] => [(Date.now() - props.rangeMs) / 1000, Date.now() / 1000], [props.entries]);
  const charts = useMemo(() => {
    const times = props.entries.map((e) => Date.parse(e.time_gte) / 1000);
    const col = (f: keyof UsageStatsEntry) => props.entries.map((e) => Number(e[f]));
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
