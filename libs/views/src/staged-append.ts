import { EventEnvelope } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { EventWriter } from './event-writer';

/** The events of a body cut in chunks (see `appendStaged`); each context names its own. */
export interface StagedAppendEvents<C> {
  /** The whole body fitted in one chunk: the one event that writes it. */
  single(chunk: C): EventEnvelope;
  /** Chunk number `seq` of upload `upload`, staged: invisible until committed. */
  staged(chunk: C, upload: string, seq: number): EventEnvelope;
  /** Makes the `chunks` staged chunks of `upload` visible at once. */
  commit(upload: string, chunks: number): EventEnvelope;
  /** Drops what was staged of `upload` (the body failed half-way). */
  abort(upload: string): EventEnvelope;
}

/**
 * Appends a request body that arrives as chunks (each at most about EVENT_CHUNK_BYTES):
 * a body of one chunk is one event; a longer one is staged chunk by chunk (one chunk is
 * always held back, so the last one can tell) and made visible by one commit event, so no
 * body is ever half-applied nor held whole in memory. When `chunks` throws half-way (bad
 * line, record too large, client gone), the staged part is aborted and the error rethrown.
 * Returns the positions a read-your-writes wait needs (none for an empty body).
 */
export async function appendStaged<C>(writer: EventWriter, topic: string, chunks: AsyncIterable<C>, events: StagedAppendEvents<C>): Promise<LogPosition[]> {
  let upload: string | null = null;
  let seq = 0;
  let held: C | null = null;
  const stage = async (c: C) => {
    upload ??= writer.ids.uuid();
    await writer.append(topic, [events.staged(c, upload, seq++)]);
  };
  try {
    for await (const chunk of chunks) {
      if (held !== null) await stage(held);
      held = chunk;
    }
  } catch (err) {
    if (upload !== null) await writer.append(topic, [events.abort(upload)]).catch(() => undefined);
    throw err;
  }
  if (held === null) return [];
  if (upload === null) return writer.append(topic, [events.single(held)]);
  await stage(held);
  return writer.append(topic, [events.commit(upload, seq)]);
}
