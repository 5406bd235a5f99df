import { useState } from 'preact/hooks';
import { storage } from '../api';
import { Link } from '../router';
import { Action, Empty, RecordView, Show, Table, useLoad } from '../ui';

const PAGE = 50;

export function CollectionsTab(props: { project: number; rest: string[] }) {
  const [type, name] = props.rest;
  return type && name ? <Collection project={props.project} type={type} name={name} /> : <CollectionList project={props.project} />;
}

function CollectionList(props: { project: number }) {
  const list = useLoad(() => storage.lines<{ type: string; name: string }>(`collections/${props.project}/list`), [props.project]);
  return (
    <Show loaded={list} label="Loading collections…">
      {(collections) =>
        collections.length === 0 ? (
          <Empty>No collections in this project.</Empty>
        ) : (
          <ul class="cards">
            {collections.map((c) => (
              <li key={`${c.type}/${c.name}`}>
                <Link href={`/p/${props.project}/collections/${c.type}/${encodeURIComponent(c.name)}`}>{c.name}</Link> <small>{c.type}</small>
              </li>
            ))}
          </ul>
        )
      }
    </Show>
  );
}

function Collection(props: { project: number; type: string; name: string }) {
  const path = `collections/${props.project}/${props.type}/${encodeURIComponent(props.name)}`;
  const [prefix, setPrefix] = useState('');
  const [after, setAfter] = useState<string[]>([]);
  const [open, setOpen] = useState<Record<string, unknown> | null>(null);
  const startafter = after[after.length - 1];
  const records = useLoad(() => storage.lines<Record<string, unknown> & { _key: string }>(path, { prefix, startafter, count: PAGE, meta: '_key' }), [path, prefix, startafter]);
  return (
    <div>
      <h2>
        <Link href={`/p/${props.project}/collections`}>Collections</Link> › {props.name} <small>{props.type}</small>
      </h2>
      <div class="filters">
        <label class="field">
          <span>Key prefix</span>
          <input
            name="key-prefix"
            type="search"
            value={prefix}
            onChange={(e) => {
              setPrefix((e.target as HTMLInputElement).value);
              setAfter([]);
            }}
          />
        </label>
      </div>
      <Show loaded={records} label="Loading records…">
        {(list) =>
          list.length === 0 ? (
            <Empty>{prefix ? `No record's key starts with "${prefix}".` : 'This collection is empty.'}</Empty>
          ) : (
            <>
              <Table
                class="records"
                rows={list}
                rowKey={(r) => r._key}
                rowProps={(r) => ({ 'data-key': r._key })}
                columns={[
                  {
                    header: 'Key',
                    cell: (r) => (
                      <button type="button" class="link" onClick={() => setOpen(r)}>
                        {r._key}
                      </button>
                    ),
                  },
                  { header: 'Record', cell: ({ _key, ...value }) => JSON.stringify(value).slice(0, 120) },
                  {
                    header: '',
                    cell: (r) => (
                      <Action name="delete-record" confirm={`Delete the record ${r._key}?`} run={async () => (await storage.delete(`${path}/${encodeURIComponent(r._key)}`), setOpen(null), records.reload())}>
                        Delete
                      </Action>
                    ),
                  },
                ]}
              />
              <nav class="pager">
                <button type="button" disabled={after.length === 0} onClick={() => setAfter(after.slice(0, -1))}>
                  ‹ Previous
                </button>
                <button type="button" disabled={list.length < PAGE} onClick={() => setAfter([...after, list[list.length - 1]._key])}>
                  Next ›
                </button>
              </nav>
            </>
          )
        }
      </Show>
      {open && <RecordView record={open} close={() => setOpen(null)} />}
    </div>
  );
}
