import { useState } from 'preact/hooks';
import { dash } from '../api';
import { Field, pairsOf, tagsOf } from '../forms';
import { Action, Empty, ErrorBox, formatTime, Show, Table, useLoad, useRun } from '../ui';
import type { DashSchedule } from '@crawlhub/wire';

type Draft = { id?: string; spider: string; cron: string; args: string; priority: string; units: string; tags: string; enabled: boolean };
const blank: Draft = { spider: '', cron: '0 * * * *', args: '', priority: '2', units: '1', tags: '', enabled: true };

function draftOf(s: DashSchedule): Draft {
  return { id: s.id, spider: s.spider, cron: s.cron, args: Object.entries(s.spider_args).map(([k, v]) => `${k}=${v}`).join(' '), priority: String(s.priority), units: String(s.units), tags: s.tags.join(', '), enabled: s.enabled };
}

function save(project: number, d: Draft) {
  const params: Record<string, string | string[]> = { project: String(project), spider: d.spider, cron: d.cron, priority: d.priority, units: d.units, add_tag: tagsOf(d.tags), enabled: String(d.enabled) };
  if (d.id) params.id = d.id;
  for (const [name, value] of pairsOf(d.args)) params[name] = value;
  return dash.post('schedules/add.json', params);
}

export function PeriodicTab(props: { project: number }) {
  const { project } = props;
  const list = useLoad(() => dash.get<{ schedules: DashSchedule[] }>('schedules/list.json', { project }), [project]);
  const [draft, setDraft] = useState<Draft | null>(null);
  return (
    <div>
      <div class="toolbar">
        <button type="button" name="new-schedule" onClick={() => setDraft(draft ? null : { ...blank })}>
          {draft ? 'Close' : 'New periodic job'}
        </button>
      </div>
      {draft && (
        <ScheduleEditor
          draft={draft}
          onSave={async (d) => {
            await save(project, d);
            setDraft(null);
            list.reload();
          }}
        />
      )}
      <Show loaded={list} label="Loading periodic jobs…">
        {({ schedules }) =>
          schedules.length === 0 ? (
            <Empty>No periodic jobs: a periodic job schedules its spider at every minute its cron expression (UTC) matches.</Empty>
          ) : (
            <Table
              class="schedules"
              rows={schedules}
              rowKey={(s) => s.id}
              rowProps={(s) => ({ 'data-schedule': s.id })}
              columns={[
                { header: 'Spider', cell: (s) => s.spider },
                { header: 'Cron (UTC)', cell: (s) => <code>{s.cron}</code> },
                { header: 'Arguments', cell: (s) => Object.entries(s.spider_args).map(([k, v]) => `${k}=${v}`).join(' ') },
                { header: 'Priority', class: 'num', cell: (s) => s.priority },
                { header: 'Tags', cell: (s) => s.tags.join(', ') },
                { header: 'Next run', cell: (s) => (s.enabled ? formatTime(s.next_run) : <span class="state paused">paused</span>) },
                {
                  header: '',
                  class: 'row-actions',
                  cell: (s) => (
                    <>
                      <button type="button" name="edit" onClick={() => setDraft(draftOf(s))}>
                        Edit
                      </button>
                      <Action name={s.enabled ? 'pause' : 'resume'} run={async () => (await save(project, { ...draftOf(s), enabled: !s.enabled }), list.reload())}>
                        {s.enabled ? 'Pause' : 'Resume'}
                      </Action>
                      <Action name="delete" confirm={`Delete the periodic job of ${s.spider}?`} run={async () => (await dash.post('schedules/delete.json', { project, id: s.id }), list.reload())}>
                        Delete
                      </Action>
                    </>
                  ),
                },
              ]}
            />
          )
        }
      </Show>
    </div>
  );
}

function ScheduleEditor(props: { draft: Draft; onSave: (d: Draft) => Promise<void> }) {
  const [d, setD] = useState(props.draft);
  const set = (name: keyof Draft) => (value: string) => setD({ ...d, [name]: value });
  const { busy, error, submit } = useRun(() => props.onSave(d));
  return (
    <form class="schedule" onSubmit={submit} aria-label="periodic job">
      <Field label="Spider" name="spider" value={d.spider} onInput={set('spider')} required />
      <Field label="Cron (UTC)" name="cron" value={d.cron} onInput={set('cron')} hint="minute hour day month weekday" required />
      <Field label="Arguments" name="args" value={d.args} onInput={set('args')} placeholder="name=value …" />
      <Field label="Priority" name="priority" type="number" value={d.priority} onInput={set('priority')} />
      <Field label="Units" name="units" type="number" value={d.units} onInput={set('units')} />
      <Field label="Tags" name="tags" value={d.tags} onInput={set('tags')} />
      <label class="field check">
        <input type="checkbox" name="enabled" checked={d.enabled} onChange={(e) => setD({ ...d, enabled: (e.target as HTMLInputElement).checked })} />
        <span>Enabled</span>
      </label>
      <button type="submit" name="save-schedule" disabled={busy}>
        {busy ? 'Saving…' : d.id ? 'Save' : 'Create'}
      </button>
      {error ? <ErrorBox error={error} /> : null}
    </form>
  );
}
