import type { ComponentChildren, HTMLAttributes, TdHTMLAttributes } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';

/** What a loading page shows: never a blank page. */
export function Spinner(props: { label?: string }) {
  return (
    <p class="spinner" role="status">
      <span class="spin" aria-hidden="true" />
      {props.label ?? 'Loading…'}
    </p>
  );
}

export function ErrorBox(props: { error: unknown; retry?: () => void }) {
  const message = props.error instanceof Error ? props.error.message : String(props.error);
  return (
    <div class="error" role="alert">
      {message}
      {props.retry && (
        <button type="button" class="link" onClick={props.retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads `load()` when `deps` change; the page shows the spinner, the error or the data. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    setState((s) => ({ data: s.data, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** A loaded block: spinner, error (with retry) or the content. */
export function Show<T>(props: { loaded: Loaded<T>; children: (data: T) => ComponentChildren; label?: string }) {
  const { data, error, loading, reload } = props.loaded;
  if (error) return <ErrorBox error={error} retry={reload} />;
  if (data === undefined) return <Spinner label={props.label} />;
  return (
    <div class={loading ? 'reloading' : undefined} aria-busy={loading}>
      {props.children(data)}
    </div>
  );
}

/**
 * Runs what a button or a form does: `busy` while it runs, its `error` kept for the page to
 * show. `submit` is a form's onSubmit (the page stays, the run starts).
 */
export function useRun(run: () => Promise<unknown>, initialError: unknown = null) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(initialError);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    void start();
  };
  return { busy, error, start, submit };
}

/** A button for an action: disabled while it runs, its error shown beside it. */
export function Action(props: { run: () => Promise<unknown>; children: ComponentChildren; class?: string; confirm?: string; disabled?: boolean; name?: string }) {
  const { busy, error, start } = useRun(props.run);
  const click = () => {
    if (!props.confirm || window.confirm(props.confirm)) void start();
  };
  return (
    <span class="action">
      <button type="button" class={props.class} name={props.name} disabled={busy || props.disabled} onClick={click}>
        {busy ? <span class="spin" aria-hidden="true" /> : null}
        {props.children}
      </button>
      {error ? <span class="inline-error" role="alert">{error instanceof Error ? error.message : String(error)}</span> : null}
    </span>
  );
}

export function Pager(props: { offset: number; count: number; shown: number; total?: number; go: (offset: number) => void }) {
  const { offset, count, shown, total } = props;
  const last = total !== undefined ? offset + shown >= total : shown < count;
  return (
    <nav class="pager" aria-label="pages">
      <button type="button" disabled={offset === 0} onClick={() => props.go(Math.max(0, offset - count))}>
        ‹ Newer
      </button>
      <span>
        {shown === 0 ? 'none' : `${offset + 1}–${offset + shown}`}
        {total !== undefined ? ` of ${total}` : ''}
      </span>
      <button type="button" name="next-page" disabled={last} onClick={() => props.go(offset + count)}>
        Next ›
      </button>
    </nav>
  );
}

/** A column of a Table: its header, and what a row shows in its cell. */
export interface Column<T> {
  header: ComponentChildren;
  cell: (row: T) => ComponentChildren;
  /** The class of its cells (`num`: figures, right-aligned). */
  class?: string;
  /** The header's tooltip. */
  title?: string;
  /** More attributes of a row's cell (a tooltip, a data-* mark). */
  cellProps?: (row: T) => TdHTMLAttributes<HTMLTableCellElement> & DataAttributes;
}

/** `data-*` marks (what the e2e tests find rows and cells by). */
type DataAttributes = { [name: `data-${string}`]: string | number };

/**
 * The list of every page: a header row, one row per record, scrolling sideways on a
 * narrow screen. `columns` may hold `false` for a column a page shows only sometimes;
 * `rowProps` adds a row's attributes (a data-* mark, a click).
 */
export function Table<T>(props: { class?: string; columns: (Column<T> | false)[]; rows: T[]; rowKey: (row: T, index: number) => string | number; rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & DataAttributes; tableProps?: DataAttributes }) {
  const columns = props.columns.filter((c): c is Column<T> => c !== false);
  return (
    <div class="scroll">
      <table class={props.class} {...props.tableProps}>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} title={c.title}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, i) => (
            <tr key={props.rowKey(row, i)} {...props.rowProps?.(row)}>
              {columns.map((c, j) => (
                <td key={j} class={c.class} {...c.cellProps?.(row)}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Named values, a name per row (counts, crawl stats). */
export function KeyValues(props: { class?: string; rows: [string, ComponentChildren][] }) {
  return (
    <table class={props.class ? `kv ${props.class}` : 'kv'}>
      <tbody>
        {props.rows.map(([name, value]) => (
          <tr key={name}>
            <th>{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Json(props: { value: unknown }) {
  return <pre class="json">{JSON.stringify(props.value, null, 2)}</pre>;
}

/** One record (an item, a collection record) opened beside its table, as JSON, with its key and a Close button. */
export function RecordView(props: { record: { _key?: unknown }; close: () => void }) {
  return (
    <div class="record-view">
      <div class="toolbar">
        <strong>{String(props.record._key)}</strong>
        <button type="button" class="link" onClick={props.close}>
          Close
        </button>
      </div>
      <Json value={props.record} />
    </div>
  );
}

export function formatTime(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = typeof value === 'number' ? new Date(value) : new Date(String(value).endsWith('Z') || /[+-]\d\d:?\d\d$/.test(String(value)) ? String(value) : `${value}Z`);
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 ** 2).toFixed(1)} MB`;
}

export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
