import type { ComponentChildren } from 'preact';
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

/** A button for an action: disabled while it runs, its error shown beside it. */
export function Action(props: { run: () => Promise<unknown>; children: ComponentChildren; class?: string; confirm?: string; disabled?: boolean; name?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const click = async () => {
    if (props.confirm && !window.confirm(props.confirm)) return;
    setBusy(true);
    setError(null);
    try {
      await props.run();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
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
