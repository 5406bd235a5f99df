import { useState } from 'preact/hooks';
import { dash, storage } from '../api';
import { Field, pairsOf, tagsOf } from '../forms';
import { Link, navigate } from '../router';
import { Action, cell, Empty, ErrorBox, formatTime, Pager, Show, Table, useLoad, useRun } from '../ui';
import type { DashJob } from '@crawlhub/wire';

const PAGE = 20;
const STATES = ['pending', 'running', 'finished', 'deleted'];
/** The time filter: jobs that entered their state within the last … (jobs/list.json `startts`). */
const SINCE: [string, number][] = [
  ['any time', 0],
  ['last hour', 3600_000],
  ['last day', 86_400_000],
  ['last week', 7 * 86_400_000],
];

export function ScheduleForm(props: { project: number; spiders: string[]; onScheduled: (jobid: string) => void }) {
  const [spider, setSpider] = useState(props.spiders[0] ?? '');
  const [args, setArgs] = useState('');
  const [settings, setSettings] = useState('');
  const [priority, setPriority] = useState('2');
  const [units, setUnits] = useState('1');
  const [tags, setTags] = useState('');
  const { busy, error, submit } = useRun(async () => {
    if (settings.trim()) JSON.parse(settings);
    const params: Record<string, string | string[]> = { project: String(props.project), spider, priority, units, add_tag: tagsOf(tags) };
    if (settings.trim()) params.job_settings = settings;
    for (const [name, value] of pairsOf(args)) params[name] = value;
    const answer = await dash.post<{ jobid: string }>('run.json', params);
    props.onScheduled(answer.jobid);
  });
  return (
    <form class="schedule" onSubmit={submit} aria-label="schedule a job">
      <Field label="Spider" name="spider">
        <input name="spider" list="spider-names" required value={spider} onInput={(e) => setSpider((e.target as HTMLInputElement).value)} />
        <datalist id="spider-names">
          {props.spiders.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      </Field>
      <Field label="Arguments" name="args" value={args} onInput={setArgs} placeholder="start_url=https://… max_pages=5" />
      <Field label="Settings (JSON)" name="settings" value={settings} onInput={setSettings} placeholder='{"DOWNLOAD_DELAY": 1}' />
      <Field label="Priority" name="priority" value={priority} onInput={setPriority} options={[0, 1, 2, 3, 4].map((p) => [p, String(p)])} />
      <Field label="Units" name="units" type="number" value={units} onInput={setUnits} />
      <Field label="Tags" name="tags" value={tags} onInput={setTags} placeholder="nightly, test" />
      <button type="submit" name="schedule" disabled={busy}>
        {busy ? 'Scheduling…' : 'Schedule'}
      </button>
      {error ? <ErrorBox error={error} /> : null}
    </form>
  );
}

export function JobsTab(props: { project: number }) {
  const { project } = props;
  const [filters, setFilters] = useState({ state: '', spider: '', tag: '', since: '0' });
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [tagText, setTagText] = useState('');
  const [scheduling, setScheduling] = useState(false);
  const spiders = useLoad(() => dash.get<{ spiders: { id: string }[] }>('spiders/list.json', { project }), [project]);
  const jobs = useLoad(
    () => dash.get<{ jobs: DashJob[]; total: number }>('jobs/list.json', { project, state: filters.state || STATES, spider: filters.spider, has_tag: filters.tag, startts: Number(filters.since) ? Date.now() - Number(filters.since) : undefined, count: PAGE, offset }),
    [project, filters.state, filters.spider, filters.tag, filters.since, offset],
  );
  const filter = (name: keyof typeof filters, value: string) => {
    setFilters({ ...filters, [name]: value });
    setOffset(0);
    setSelected(new Set());
  };
  const done = () => {
    setSelected(new Set());
    jobs.reload();
  };
  const chosen = [...selected];
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const rerun = async (ids: string[]) => {
    for (const id of ids) {
      const job = jobs.data?.jobs.find((j) => j.id === id);
      const meta = await storage.json<{ spider_args?: Record<string, string>; priority?: number; units?: number; tags?: string[] }>(`jobs/${id}`);
      await dash.post('run.json', { project, spider: job?.spider, priority: meta.priority, units: meta.units, add_tag: meta.tags ?? [], ...(meta.spider_args ?? {}) });
    }
  };
  const spiderNames = spiders.data?.spiders.map((s) => s.id) ?? [];
  return (
    <div>
      <div class="toolbar">
        <button type="button" name="open-schedule" onClick={() => setScheduling(!scheduling)}>
          {scheduling ? 'Close' : 'Schedule a job'}
        </button>
      </div>
      {scheduling && (
        <ScheduleForm
          project={project}
          spiders={spiderNames}
          onScheduled={(jobid) => {
            setScheduling(false);
            navigate(`/p/${jobid}`);
          }}
        />
      )}
      <div class="filters">
        <Field label="State" name="state" value={filters.state} onInput={(v) => filter('state', v)} options={[['', 'any'], ...STATES.map((s): [string, string] => [s, s])]} />
        <Field label="Spider" name="spider-filter" value={filters.spider} onInput={(v) => filter('spider', v)} options={[['', 'any'], ...spiderNames.map((s): [string, string] => [s, s])]} />
        <Field label="Tag" name="tag-filter" value={filters.tag} onInput={(v) => filter('tag', v.trim())} />
        <Field label="In its state since" name="since" value={filters.since} onInput={(v) => filter('since', v)} options={SINCE.map(([label, ms]) => [ms, label])} />
      </div>
      {chosen.length > 0 && (
        <div class="bulk" aria-label="bulk actions">
          <span>{chosen.length} selected</span>
          <Action name="stop" run={async () => (await dash.post('jobs/stop.json', { project, job: chosen }), done())}>
            Stop
          </Action>
          <Action name="delete" confirm={`Delete ${chosen.length} job(s)? Only finished jobs can be deleted.`} run={async () => (await dash.post('jobs/delete.json', { project, job: chosen }), done())}>
            Delete
          </Action>
          <Action name="rerun" run={async () => (await rerun(chosen), done())}>
            Re-run
          </Action>
          <input name="bulk-tag" placeholder="tag" value={tagText} onInput={(e) => setTagText((e.target as HTMLInputElement).value)} />
          <Action name="tag" disabled={!tagText.trim()} run={async () => (await dash.post('jobs/update.json', { project, job: chosen, add_tag: tagsOf(tagText) }), done())}>
            Tag
          </Action>
          <Action name="untag" disabled={!tagText.trim()} run={async () => (await dash.post('jobs/update.json', { project, job: chosen, remove_tag: tagsOf(tagText) }), done())}>
            Untag
          </Action>
        </div>
      )}
      <Show loaded={jobs} label="Loading jobs…">
        {({ jobs: list, total }) =>
          list.length === 0 ? (
            <Empty>{filters.state || filters.spider || filters.tag || filters.since !== '0' ? 'No job matches these filters.' : 'No jobs yet: schedule one.'}</Empty>
          ) : (
            <>
              <Table
                class="jobs"
                rows={list}
                rowKey={(j) => j.id}
                rowProps={(j) => ({ 'data-job': j.id })}
                columns={[
                  { header: '', cell: (j) => <input type="checkbox" aria-label={`select ${j.id}`} checked={selected.has(j.id)} onChange={() => toggle(j.id)} /> },
                  { header: 'Job', cell: (j) => <Link href={`/p/${j.id}`}>{j.id}</Link> },
                  { header: 'Spider', cell: (j) => j.spider },
                  { header: 'State', cell: (j) => <span class={`state ${j.state}`}>{j.state}</span> },
                  { header: 'Items', class: 'num', cell: (j) => j.items_scraped },
                  { header: 'Errors', class: 'num', cell: (j) => j.errors_count },
                  { header: 'Tags', cell: (j) => j.tags.join(', ') },
                  { header: 'Updated', cell: (j) => formatTime(j.updated_time) },
                  { header: 'Close reason', cell: (j) => cell(j.close_reason) },
                ]}
              />
              <Pager offset={offset} count={PAGE} shown={list.length} total={total} go={setOffset} />
            </>
          )
        }
      </Show>
    </div>
  );
}
