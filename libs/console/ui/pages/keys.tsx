import { useState } from 'preact/hooks';
import { dash, Me } from '../api';
import { Field } from '../forms';
import { Action, Empty, ErrorBox, Show, Table, useLoad, useRun } from '../ui';
import type { DashKey } from '@crawlhub/wire';

// Key management (admin keys only): the dash API's keys/*.json, what `crawlhub keys` does.

const CAPABILITIES = ['browser', 'extraction', 'deploy'] as const;

export function KeysPage(props: { me: Me }) {
  const list = useLoad(() => dash.get<{ keys: DashKey[] }>('keys/list.json'), []);
  const [created, setCreated] = useState<{ key_id: string; apikey: string } | null>(null);
  if (!props.me.admin) return <ErrorBox error="403: Only an admin key manages keys" />;
  return (
    <section>
      <h1>API keys</h1>
      <CreateKey
        onCreated={(c) => {
          setCreated(c);
          list.reload();
        }}
      />
      {created && (
        <div class="notice created-key" role="status">
          Created <strong>{created.key_id}</strong>. Its secret, shown this once (only a digest is kept): <code data-secret>{created.apikey}</code>
          <button type="button" class="link" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <Show loaded={list} label="Loading keys…">
        {({ keys }) =>
          keys.length === 0 ? (
            <Empty>No keys.</Empty>
          ) : (
            <Table
              class="keys"
              rows={keys}
              rowKey={(k) => k.key_id}
              rowProps={(k) => ({ 'data-key': k.key_id })}
              columns={[
                { header: 'Key id', cell: (k) => <code>{k.key_id}</code> },
                { header: 'Label', cell: (k) => k.label },
                { header: 'Sees', cell: (k) => (k.admin ? 'every project (admin)' : `projects ${k.projects.join(', ')}`) },
                {
                  header: 'Capabilities',
                  class: 'capabilities',
                  cell: (k) =>
                    k.admin
                      ? 'all'
                      : CAPABILITIES.map((c) => {
                          const held = k.capabilities.includes(c);
                          return (
                            <Action key={c} name={`${held ? 'withdraw' : 'grant'}-${c}`} class={held ? 'held' : 'not-held'} run={async () => (await dash.post(held ? 'keys/withdraw.json' : 'keys/grant.json', { key_id: k.key_id, capability: c }), list.reload())}>
                              {held ? `✓ ${c}` : `+ ${c}`}
                            </Action>
                          );
                        }),
                },
                {
                  header: '',
                  class: 'row-actions',
                  cell: (k) =>
                    k.key_id === props.me.key_id ? (
                      <span class="muted">this key</span>
                    ) : (
                      <Action name="revoke" confirm={`Revoke ${k.key_id} (${k.label})? Its requests and sessions stop working.`} run={async () => (await dash.post('keys/revoke.json', { key_id: k.key_id }), list.reload())}>
                        Revoke
                      </Action>
                    ),
                },
              ]}
            />
          )
        }
      </Show>
    </section>
  );
}

function CreateKey(props: { onCreated: (c: { key_id: string; apikey: string }) => void }) {
  const [projects, setProjects] = useState('');
  const [label, setLabel] = useState('');
  const [admin, setAdmin] = useState(false);
  const [grant, setGrant] = useState<string[]>([]);
  const { busy, error, submit } = useRun(async () => {
    const answer = await dash.post<{ apikey: string; key: { key_id: string } }>('keys/create.json', {
      project: admin ? [] : projects.split(/[\s,]+/).filter(Boolean),
      admin: admin ? 'true' : undefined,
      label,
      grant: admin ? [] : grant,
    });
    props.onCreated({ key_id: answer.key.key_id, apikey: answer.apikey });
    setProjects('');
    setLabel('');
    setGrant([]);
  });
  return (
    <form class="create-key" onSubmit={submit} aria-label="new key">
      <Field label="Projects" name="projects" value={projects} onInput={setProjects} placeholder="1, 2" hint="the project ids it may see" />
      <Field label="Label" name="label" value={label} onInput={setLabel} />
      <label class="field check">
        <input type="checkbox" name="admin" checked={admin} onChange={(e) => setAdmin((e.target as HTMLInputElement).checked)} />
        <span>Admin (every project, every capability)</span>
      </label>
      {!admin &&
        CAPABILITIES.map((c) => (
          <label class="field check" key={c}>
            <input type="checkbox" name={`grant-${c}`} checked={grant.includes(c)} onChange={(e) => setGrant((e.target as HTMLInputElement).checked ? [...grant, c] : grant.filter((g) => g !== c))} />
            <span>{c}</span>
          </label>
        ))}
      <button type="submit" name="create-key" disabled={busy}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
      {error ? <ErrorBox error={error} /> : null}
    </form>
  );
}
