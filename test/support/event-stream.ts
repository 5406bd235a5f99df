/** One Server-Sent Event as a client sees it; comments (`: keepalive`) are kept apart. */
export interface ServerSentEvent {
  id?: string;
  event: string;
  data: string;
  /** When it arrived (Date.now()). */
  at: number;
}

/** An open `text/event-stream` response, read as it arrives. */
export interface EventStreamClient {
  status: number;
  headers: Headers;
  /** Every event so far, in order. */
  events: ServerSentEvent[];
  /** Every comment line so far (without the colon). */
  comments: string[];
  /** Resolves with the first event (from index `from`) that matches, or rejects after `timeoutMs`. */
  next(match: (e: ServerSentEvent) => boolean, timeoutMs?: number, from?: number): Promise<ServerSentEvent>;
  /** Resolves when the server ended the response. */
  ended: Promise<void>;
  /** The client goes away (aborts the request). */
  close(): void;
}

/**
 * Opens an SSE stream with fetch and parses it per the HTML spec's framing (fields per
 * line, events ended by a blank line); enough for tests, which read only id, event and data.
 */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: ServerSentEvent[] = [];
  const comments: string[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  let done = false;
  const ended = (async () => {
    if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const decoder = new TextDecoder();
    let buffer = '';
    let current: Partial<ServerSentEvent> = {};
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, '');
          buffer = buffer.slice(nl + 1);
          if (line === '') {
            if (current.data !== undefined) events.push({ id: current.id, event: current.event ?? 'message', data: current.data, at: Date.now() });
            current = {};
            notify();
            continue;
          }
          if (line.startsWith(':')) {
            comments.push(line.slice(1).trim());
            notify();
            continue;
          }
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') current.data = current.data === undefined ? value : `${current.data}\n${value}`;
          else if (field === 'id') current.id = value;
          else if (field === 'event') current.event = value;
        }
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      notify();
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    ended,
    close: () => abort.abort(),
    next: (match, timeoutMs = 5000, from = 0) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = events.slice(from).find(match);
          if (hit) finish(() => resolve(hit));
          else if (done) finish(() => reject(new Error(`stream ended without the event; got ${JSON.stringify(events.map((e) => e.event))}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => [e.event, e.id]))}`))), timeoutMs);
        const finish = (f: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          f();
        };
        listeners.add(check);
        check();
      }),
  };
}
