import { EventStamps } from './clock';
import { currentCorrelationId } from './correlation';

/** Who caused an event: an API key (by id), a job (by key), or a platform component. */
export interface Actor {
  kind: 'key' | 'job' | 'system';
  id: string;
}

/**
 * Every event in the log has this envelope. `key` is the partition key (job key,
 * project id, collection, frontier slot...). Types are versioned and never change
 * meaning: a new meaning is a new version.
 *
 * `lines` is an optional bulk attachment of compact JSON texts (items, log lines...).
 * It travels outside `data` so that bulk records are neither escaped nor re-parsed on
 * their way through the log (see encodeEvent).
 */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  version: number;
  key: string;
  occurredAt: number;
  correlationId: string;
  causationId: string | null;
  actor: Actor;
  data: T;
  lines?: string[];
  /**
   * Only on the writer's side, never in the wire form: the attached lines as the writer
   * already holds them in UTF-8, pieces whose concatenation is `lines.join('\n')` (the
   * posted bytes of each line). encodeEvent copies them instead of encoding `lines` again.
   */
  linesUtf8?: Buffer[];
}

export interface NewEvent<T> {
  type: string;
  version?: number;
  key: string;
  data: T;
  lines?: string[];
  linesUtf8?: Buffer[];
  actor: Actor;
  correlationId?: string;
  causationId?: string | null;
}

/** A new event, its id and time from `stamps`: the process's injected CLOCK and IDS (clock.ts), or a test's. */
export function createEvent<T>(e: NewEvent<T>, { clock, ids }: EventStamps): EventEnvelope<T> {
  const id = ids.uuid();
  return {
    id,
    type: e.type,
    version: e.version ?? 1,
    key: e.key,
    occurredAt: clock.now(),
    // An event made while an HTTP request is handled carries the request's id (correlation.ts).
    correlationId: e.correlationId ?? currentCorrelationId() ?? id,
    causationId: e.causationId ?? null,
    actor: e.actor,
    data: e.data,
    ...(e.lines ? { lines: e.lines } : {}),
    ...(e.linesUtf8 ? { linesUtf8: e.linesUtf8 } : {}),
  };
}

/**
 * Wire form: the envelope (without `lines`) as one JSON line, then each attached line.
 * JSON.stringify never emits a raw newline, so the first newline ends the header, and
 * attached lines must be compact JSON texts (no raw newline either).
 */
export function encodeEvent(e: EventEnvelope): Buffer {
  const { lines, linesUtf8, ...header } = e;
  const head = JSON.stringify(header);
  if (!lines || lines.length === 0) return Buffer.from(head, 'utf8');
  if (linesUtf8) return Buffer.concat([Buffer.from(head + '\n', 'utf8'), ...linesUtf8]);
  return Buffer.from(head + '\n' + lines.join('\n'), 'utf8');
}

export function decodeEvent(buf: Buffer | string): EventEnvelope {
  const text = typeof buf === 'string' ? buf : buf.toString('utf8');
  const nl = text.indexOf('\n');
  if (nl < 0) return JSON.parse(text) as EventEnvelope;
  const header = JSON.parse(text.slice(0, nl)) as EventEnvelope;
  header.lines = text.slice(nl + 1).split('\n');
  return header;
}
