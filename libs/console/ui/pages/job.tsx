import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { call, dash, query, storage } from '../api';
import { TimeChart } from '../chart';
import { Link, navigate } from '../router';
import { Field } from '../forms';
import { Action, cell, Empty, ErrorBox, formatBytes, formatTime, Json, KeyValues, Pager, RecordView, Show, Spinner, Table, useLoad, useRun } from '../ui';
import type { AuditEntry, CommentObject, JobRecordRates, JobRecordStats } from '@crawlhub/wire';

type Meta = Record<string, unknown> & { state?: string; spider?: string; close_reason?: string; tags?: string[]; spider_args?: Record<string, string>; scrapystats?: Record<string, unknown> };

const TABS = ['items', 'requests', 'log', 'stats', 'metadata', 'history'] as const;
type Tab = (typeof TABS)[number];
const LIVE = new Set(['pending', 'running']);

export function JobPage(props: { project: number; spider: number; job: number }) {
  const key = `${props.project}/${props.spider}/${props.job}`;
  const [tab, setTab] = useState<Tab>('items');
  const meta = useLoad(() => storage.json<Meta>(`jobs/${key}`), [key]);
  const state = meta.data?.state;
  // While the job runs, its state is read again now and then (the log tab streams by itself).
  useEffect(() => {
    if (!state || !LIVE.has(state)) return;
    const timer = setInterval(meta.reload, 2000);
    return () => clearInterval(timer);
  }, [state]);
  return (
    <section>
      <h1>
        <Link href="/">Projects</Link> › <Link href={`/p/${props.project}`}>Project {props.project}</Link> › Job {key}
      </h1>
      <Show loaded={meta} label="Loading the job…">
        {(m) => (Object.keys(m).length === 0 ? <Empty>No job {key} (nothing was written for it).</Empty> : <JobHeader jobKey={key} meta={m} reload={meta.reload} />)}
      </Show>
      <nav class="tabs">
        {TABS.map((t) => (
          <button key={t} type="button" name={`tab-${t}`} class={tab === t ? 'active' : undefined} onClick={() => setTab(t)}>
            {t[0].toUpperCase() + t.slice(1)}
          </button>
        ))}
      </nav>
      {tab === 'items' && <Records jobKey={key} kind="items" />}
      {tab === 'requests' && <Records jobKey={key} kind="requests" />}
      {tab === 'log' && <Log jobKey={key} live={!!state && LIVE.has(state)} />}
      {tab === 'stats' && meta.data && <CrawlStats meta={meta.data} jobKey={key} />}
      {tab === 'metadata' && meta.data && <Json value={meta.data} />}
      {tab === 'history' && <History jobKey={key} />}
    </section>
  );
}

function JobHeader(props: { jobKey: string; meta: Meta; reload: () => void }) {
  const { meta, jobKey } = props;
  const project = jobKey.split('/')[0];
  const state = meta.state ?? 'unknown';
  const rerun = async () => {
    const answer = await dash.post<{ jobid: string }>('run.json', { project, spider: meta.spider, priority: meta.priority as number, units: meta.units as number, add_tag: meta.tags ?? [], ...(meta.spider_args ?? {}) });
    navigate(`/p/${answer.jobid}`);
  };
  return (
    <div class="job-head">
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <span class={`state ${state}`} data-state={state}>
            {state}
          </span>
          {meta.stop_requested ? ' (stop requested)' : ''}
        </dd>
        <dt>Spider</dt>
        <dd>{meta.spider ?? '—'}</dd>
        <dt>Pending since</dt>
        <dd>{formatTime(meta.pending_time)}</dd>
        <dt>Started</dt>
        <dd>{formatTime(meta.running_time)}</dd>
        <dt>Finished</dt>
        <dd>{formatTime(meta.finished_time)}</dd>
        <dt>Close reason</dt>
        <dd data-close-reason>{meta.close_reason ?? '—'}</dd>
        <dt>Tags</dt>
        <dd>{(meta.tags ?? []).join(', ') || '—'}</dd>
        <dt>Arguments</dt>
        <dd>{Object.entries(meta.spider_args ?? {}).map(([k, v]) => `${k}=${v}`).join(' ') || '—'}</dd>
      </dl>
      <div class="toolbar">
        {LIVE.has(state) && (
          <Action name="stop-job" run={async () => (await dash.post('jobs/stop.json', { project, job: jobKey }), props.reload())}>
            Stop
          </Action>
        )}
        <Action name="rerun-job" run={rerun}>
          Re-run
        </Action>
        {state === 'finished' && (
          <Action name="delete-job" confirm={`Delete job ${jobKey}?`} run={async () => (await dash.post('jobs/delete.json', { project, job: jobKey }), props.reload())}>
            Delete
          </Action>
        )}
      </div>
    </div>
  );
}

function CrawlStats(props: { meta: Meta; jobKey: string }) {
  const stats = props.meta.scrapystats ?? {};
  const counts = useLoad(() => Promise.all((['items', 'requests', 'logs'] as const).map((k) => storage.json<JobRecordStats>(`${k}/${props.jobKey}/stats`))), [props.jobKey]);
  return (
    <div>
      <Show loaded={counts}>
        {([items, requests, logs]) => (
          <KeyValues
            rows={[
              ['items', `${items.totals.input_values} (${formatBytes(items.totals.input_bytes)})`],
              ['requests', requests.totals.input_values],
              ['log lines', `${logs.totals.input_values}${Object.keys(logs.counts).length ? ` (${Object.entries(logs.counts).map(([level, n]) => `${level}: ${n}`).join(', ')})` : ''}`],
            ]}
          />
        )}
      </Show>
      <Rates jobKey={props.jobKey} />
      <h2>Crawl stats</h2>
      {Object.keys(stats).length === 0 ? (
        <Empty>The job reported no crawl stats (yet).</Empty>
      ) : (
        <KeyValues class="stats" rows={Object.entries(stats).sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => [name, cell(value)])} />
      )}
    </div>
  );
}

/**
 * Items, requests and errors (log lines at ERROR or above) per minute, from the storage
 * API's rates (each record's commit time, `_ts`): what the job stored, when it stored it.
 */
function Rates(props: { jobKey: string }) {
  const rates = useLoad(
    () => Promise.all([storage.json<JobRecordRates>(`items/${props.jobKey}/rates`), storage.json<JobRecordRates>(`requests/${props.jobKey}/rates`), storage.json<JobRecordRates>(`logs/${props.jobKey}/rates`, { level: 40 })]),
    [props.jobKey],
  );
  return (
    <Show loaded={rates} label="Loading the rates…">
      {([items, requests, errors]) => <RatesChart items={items} requests={requests} errors={errors} />}
    </Show>
  );
}

function RatesChart(props: { items: JobRecordRates; requests: JobRecordRates; errors: JobRecordRates }) {
  const chart = useMemo(() => {
    const all = [props.items, props.requests, props.errors];
    // One point per minute from the first to the last, so a quiet minute reads 0.
    const stamps = all.flatMap((r) => r.rates.map(([t]) => t));
    if (stamps.length === 0) return null;
    const step = props.items.bucket * 1000;
    const times: number[] = [];
    for (let t = Math.min(...stamps); t <= Math.max(...stamps); t += step) times.push(t);
    const valuesOf = (r: JobRecordRates) => {
      const at = new Map(r.rates);
      return times.map((t) => at.get(t) ?? 0);
    };
    return {
      times: times.map((t) => t / 1000),
      range: [times[0] / 1000 - step / 2000, times[times.length - 1] / 1000 + step / 2000] as [number, number],
      series: [
        { label: 'items', values: valuesOf(props.items), color: '#2a7' },
        { label: 'requests', values: valuesOf(props.requests), color: '#36c' },
        { label: 'errors', values: valuesOf(props.errors), color: '#c33' },
      ],
    };
  }, [props.items, props.requests, props.errors]);
  if (!chart) return <Empty>No items, requests or errors stored yet: no rates to chart.</Empty>;
  return <TimeChart title="Per minute" times={chart.times} series={chart.series} range={chart.range} />;
}

const PAGE = 20;

/** Items or requests: a table whose columns are the records' fields, one record's JSON, pages, downloads. */
function Records(props: { jobKey: string; kind: 'items' | 'requests' }) {
  const { jobKey, kind } = props;
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<Record<string, unknown> | null>(null);
  const total = useLoad(() => storage.json<JobRecordStats>(`${kind}/${jobKey}/stats`), [jobKey, kind]);
  const page = useLoad(() => storage.lines<Record<string, unknown>>(`${kind}/${jobKey}`, { start: `${jobKey}/${offset}`, count: PAGE, meta: '_key' }), [jobKey, kind, offset]);
  const count = total.data?.totals.input_values;
  const fields = columnsOf(page.data ?? []);
  const comments = useLoad(() => (kind === 'items' ? commentsOf(jobKey) : Promise.resolve<JobComments>({})), [jobKey, kind]);
  const noted = (r: Record<string, unknown>) => {
    const item = String(r._key).split('/')[3];
    return Object.entries(comments.data ?? {}).filter(([target]) => target === item || target.startsWith(`${item}/`)).reduce((n, [, list]) => n + list.filter((c) => !c.archived).length, 0);
  };
  return (
    <div>
      {kind === 'items' && count ? <Downloads jobKey={jobKey} fields={fields} /> : null}
      <Show loaded={page} label={`Loading ${kind}…`}>
        {(records) =>
          records.length === 0 ? (
            <Empty>{offset === 0 ? `No ${kind} yet.` : `No ${kind} on this page.`}</Empty>
          ) : (
            <>
              <Table
                class="records"
                tableProps={{ 'data-kind': kind }}
                rows={records}
                rowKey={(r) => String(r._key)}
                rowProps={(r) => ({ onClick: () => setOpen(r), class: 'clickable' })}
                columns={[
                  { header: '#', class: 'num', cell: (r) => String(r._key).split('/')[3] },
                  kind === 'items' && { header: 'Notes', title: 'active comments on the item and its fields', class: 'num', cellProps: (r) => ({ 'data-notes': noted(r) }), cell: (r) => noted(r) || '' },
                  ...fields.map((f) => ({ header: f, cellProps: (r: Record<string, unknown>) => ({ title: cell(r[f]) }), cell: (r: Record<string, unknown>) => cell(r[f]).slice(0, 120) })),
                ]}
              />
              <Pager offset={offset} count={PAGE} shown={records.length} total={count} go={setOffset} />
            </>
          )
        }
      </Show>
      {open && <RecordView record={open} close={() => setOpen(null)} />}
      {open && kind === 'items' && <ItemComments itemKey={String(open._key)} fields={Object.keys(open).filter((f) => f !== '_key')} comments={comments.data ?? {}} changed={comments.reload} />}
    </div>
  );
}

type JobComments = Record<string, CommentObject[]>;

/** Every comment of the job (the dash API's comments, docs/dash-api.md "Comments"), keyed `<item>` or `<item>/<field>`. */
const commentsOf = (jobKey: string) => dash.get<JobComments>(`comments/${jobKey}`);

/** The comments on one item and its fields: add one (to the item or a field), archive a target's, delete one's own. */
function ItemComments(props: { itemKey: string; fields: string[]; comments: JobComments; changed: () => void }) {
  const [jobKey, item] = [props.itemKey.split('/').slice(0, 3).join('/'), props.itemKey.split('/')[3]];
  const [target, setTarget] = useState('');
  const [text, setText] = useState('');
  const targets = Object.entries(props.comments).filter(([t]) => t === item || t.startsWith(`${item}/`));
  const path = (t: string) => `comments/${jobKey}/${t.split('/').map(encodeURIComponent).join('/')}`;
  const { busy, error, submit: add } = useRun(async () => {
    await dash.post(path(target ? `${item}/${target}` : item), { text });
    setText('');
    props.changed();
  });
  return (
    <div class="comments">
      <h3>Comments on item {item}</h3>
      {targets.length === 0 ? (
        <Empty>No comments on this item or its fields.</Empty>
      ) : (
        targets.map(([t, list]) => (
          <div key={t} class="comment-target" data-target={t}>
            <div class="toolbar">
              <strong>{t === item ? 'the item' : `field ${t.slice(item.length + 1)}`}</strong>
              {list.some((c) => !c.archived) && (
                <Action name="archive-comments" run={async () => (await call(`/api/${path(t)}`, { method: 'DELETE' }), props.changed())}>
                  Archive
                </Action>
              )}
            </div>
            <ul>
              {list.map((c) => (
                <li key={c.id} class={c.archived ? 'archived' : undefined} data-comment={c.id}>
                  <span class="comment-text">{c.text}</span> <small class="muted">{c.author}, {formatTime(c.created)}{c.archived ? ` (archived ${formatTime(c.archived)})` : ''}</small>
                  {c.editable && (
                    <Action name="delete-comment" class="link" confirm="Delete this comment for good?" run={async () => (await call(`/api/comments/${c.id}`, { method: 'DELETE' }), props.changed())}>
                      Delete
                    </Action>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
      <form class="comment" onSubmit={add} aria-label="new comment">
        <Field label="On" name="comment-target" value={target} onInput={setTarget} options={[['', 'the item'], ...props.fields.map((f): [string, string] => [f, `field ${f}`])]} />
        <label class="field">
          <span>Comment</span>
          <input name="comment-text" value={text} required onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" name="add-comment" disabled={busy || text.trim() === ''}>
          {busy ? 'Adding…' : 'Add comment'}
        </button>
        {error ? <ErrorBox error={error} /> : null}
      </form>
    </div>
  );
}

function columnsOf(records: Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const f of Object.keys(r)) if (f !== '_key') seen.add(f);
  return [...seen];
}

/** Downloads through the storage API's formats, with the bytes received shown while they come. */
function Downloads(props: { jobKey: string; fields: string[] }) {
  const [progress, setProgress] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const name = props.jobKey.replace(/\//g, '-');
  const download = async (format: string) => {
    const params: Record<string, string> = { format };
    if (format === 'csv') Object.assign(params, { fields: props.fields.join(','), include_headers: '1' });
    const file = `items-${name}.${format}`;
    setError(null);
    setProgress(`Downloading ${file}…`);
    try {
      const res = await fetch(`/storage/items/${props.jobKey}${query(params)}`, { credentials: 'same-origin' });
      if (!res.ok || !res.body) throw new Error(`${res.status}: ${(await res.text()).trim()}`);
      const reader = res.body.getReader();
      const chunks: Uint8Array[] = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        setProgress(`Downloading ${file}: ${formatBytes(received)}`);
      }
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: res.headers.get('content-type') ?? 'application/octet-stream' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setProgress(`Saved ${file} (${formatBytes(received)})`);
    } catch (e) {
      setProgress(null);
      setError(e);
    }
  };
  return (
    <div class="downloads">
      <span>Download:</span>
      {['jl', 'json', 'csv', 'xml'].map((f) => (
        <button key={f} type="button" name={`download-${f}`} onClick={() => download(f)}>
          {f.toUpperCase()}
        </button>
      ))}
      {progress && (
        <span class="progress" role="status">
          {progress}
        </span>
      )}
      {error ? <ErrorBox error={error} /> : null}
    </div>
  );
}

interface LogLine {
  _key?: string;
  time: number;
  level: number;
  message: string;
}
const LEVELS: [number, string][] = [
  [10, 'DEBUG'],
  [20, 'INFO'],
  [30, 'WARNING'],
  [40, 'ERROR'],
  [50, 'CRITICAL'],
];
const positionOf = (key: string | undefined) => Number(String(key).split('/')[3]);
const levelName = (n: number) => [...LEVELS].reverse().find(([l]) => n >= l)?.[1] ?? String(n);
const TAIL_LINES = 1000;

/**
 * The log: level filter and search (the storage API's filters); while the job runs, a
 * live tail from the storage API's event stream (`/logs/<job>/events?start=<n>`, from the
 * first record not read yet; the browser resumes a dropped stream with Last-Event-ID),
 * or by polling where that stream is not served (a storage API behind an older proxy).
 */
function Log(props: { jobKey: string; live: boolean }) {
  const [level, setLevel] = useState(0);
  const [search, setSearch] = useState('');
  const [lines, setLines] = useState<LogLine[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tailing, setTailing] = useState<'stream' | 'poll' | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const matches = (l: LogLine) => l.level >= level && (!search || l.message.includes(search));

  useEffect(() => {
    let stopped = false;
    setLines(null);
    setError(null);
    const filters: string[] = [];
    if (level) filters.push(JSON.stringify(['level', '>=', [level]]));
    if (search) filters.push(JSON.stringify(['message', 'contains', [search]]));
    const params = { meta: '_key', filter: filters };
    let stopTail = () => {};
    // Where the tail starts: past every record already there when the page read them
    // (the stats' count) and past the last one the filtered read returned.
    Promise.all([storage.json<JobRecordStats>(`logs/${props.jobKey}/stats`), storage.lines<LogLine>(`logs/${props.jobKey}`, params)]).then(
      ([stats, first]) => {
        if (stopped) return;
        setLines(first.slice(-TAIL_LINES));
        const last = first.length ? positionOf(first[first.length - 1]._key) + 1 : 0;
        if (props.live) stopTail = tail(Math.max(stats.totals.input_values, last));
      },
      (e) => !stopped && setError(e),
    );
    const append = (more: LogLine[]) => setLines((old) => [...(old ?? []), ...more.filter(matches)].slice(-TAIL_LINES));
    // Positions: the stream resumes after the last record read (its id is the record's position).
    function tail(from: number): () => void {
      const source = new EventSource(`/storage/logs/${props.jobKey}/events?start=${from}`);
      let opened = false;
      let seen = from;
      let poller: ReturnType<typeof setInterval> | null = null;
      source.onopen = () => {
        opened = true;
        setTailing('stream');
      };
      source.addEventListener('log', (e) => {
        const position = Number((e as MessageEvent).lastEventId);
        if (position < seen) return;
        seen = position + 1;
        append([{ ...(JSON.parse((e as MessageEvent).data) as LogLine), _key: `${props.jobKey}/${position}` }]);
      });
      source.addEventListener('end', () => {
        source.close();
        setTailing(null);
      });
      source.onerror = () => {
        if (opened) return; // the browser reconnects by itself, with Last-Event-ID
        source.close();
        // No stream here: read what is new every second instead.
        setTailing('poll');
        poller = setInterval(async () => {
          try {
            const more = await storage.lines<LogLine>(`logs/${props.jobKey}`, { meta: '_key', start: `${props.jobKey}/${seen}` });
            seen += more.length;
            append(more);
          } catch (e) {
            setError(e);
          }
        }, 1000);
      };
      return () => {
        source.close();
        if (poller) clearInterval(poller);
        setTailing(null);
      };
    }
    return () => {
      stopped = true;
      stopTail();
    };
  }, [props.jobKey, props.live, level, search]);

  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines]);

  return (
    <div>
      <div class="filters">
        <Field label="Level" name="log-level" value={String(level)} onInput={(v) => setLevel(Number(v))} options={[[0, 'all'], ...LEVELS.map(([n, name]): [number, string] => [n, `${name} and above`])]} />
        <label class="field">
          <span>Search</span>
          <input name="log-search" type="search" value={search} onChange={(e) => setSearch((e.target as HTMLInputElement).value)} />
        </label>
        {tailing && (
          <span class="live" role="status">
            ● live {tailing === 'poll' ? '(polling)' : ''}
          </span>
        )}
      </div>
      {error ? <ErrorBox error={error} /> : null}
      {lines === null && !error ? <Spinner label="Loading the log…" /> : null}
      {lines !== null && lines.length === 0 ? <Empty>{level || search ? 'No log line matches.' : props.live ? 'No log lines yet: waiting for the job…' : 'The job wrote no log.'}</Empty> : null}
      {lines !== null && lines.length > 0 && (
        <div class="log" ref={box}>
          {lines.map((l, i) => (
            <div key={l._key ?? i} class={`line l${Math.floor(l.level / 10) * 10}`}>
              <time>{formatTime(l.time)}</time> <b>{levelName(l.level)}</b> {l.message}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** What an audit entry did to the job, in a line. */
function auditWhat(a: AuditEntry, jobKey: string): string {
  if (a.failed !== undefined) return `${a.request?.op ?? a.type} could not be decided: ${a.failed}`;
  if (a.jobs !== undefined) {
    const state = a.jobs.find((j) => j.key === jobKey)?.state;
    const refused = (a.outcome as { error?: string } | undefined)?.error;
    return `${a.request?.op ?? a.type}${state ? ` → ${state}` : ''}${a.purged?.includes(jobKey) ? ' → purged' : ''}${refused ? ` (refused: ${refused})` : ''}`;
  }
  const data = JSON.stringify(a.data ?? {});
  return `${a.type}${a.records !== undefined ? ` +${a.records} records` : ''} ${data.length > 160 ? `${data.slice(0, 160)}…` : data}`;
}

/** The job's audit history from the event log (dash jobs/audit.json, the reader of `crawlhub audit`): who did what, when. */
function History(props: { jobKey: string }) {
  const project = props.jobKey.split('/')[0];
  const audit = useLoad(() => dash.get<{ entries: AuditEntry[] }>('jobs/audit.json', { project, job: props.jobKey }), [props.jobKey]);
  return (
    <Show loaded={audit} label="Reading the job's history from the log…">
      {({ entries }) =>
        entries.length === 0 ? (
          <Empty>No events about this job in the log.</Empty>
        ) : (
          <Table
            class="audit"
            rows={entries}
            rowKey={(_, i) => i}
            rowProps={(a) => ({ 'data-type': a.type })}
            columns={[
              { header: 'Time', cell: (a) => formatTime(a.at) },
              { header: 'Actor', cell: (a) => `${a.actor.kind}:${a.actor.id}` },
              { header: 'What', cell: (a) => auditWhat(a, props.jobKey) },
            ]}
          />
        )
      }
    </Show>
  );
}
