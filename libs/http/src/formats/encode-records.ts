import { RecordEncoder } from './types';

/** One record's JSON text, or a page of them (a page costs one await instead of one per record). */
export type RecordOrPage = string | readonly string[];

/** Target size of the chunks `encodeRecords` yields. */
export const CHUNK_BYTES = 64 * 1024;

/**
 * Encodes a record stream into Buffers of about `chunkBytes` (64 KiB) each: head,
 * records, tail, batched so a `Readable.from(encodeRecords(...))` makes few writes.
 * Sync iterables are walked with a plain loop (no await per record). Yields nothing
 * when the whole body is empty (e.g. jl with no records). Errors from the source or
 * the encoder propagate to the consumer.
 */
export async function* encodeRecords(
  records: AsyncIterable<RecordOrPage> | Iterable<RecordOrPage>,
  encoder: RecordEncoder,
  chunkBytes: number = CHUNK_BYTES,
): AsyncGenerator<Buffer, void, undefined> {
  const batch = new Batch();
  batch.add(encoder.head());
  if (isAsyncIterable(records)) {
    for await (const item of records) {
      for (const json of typeof item === 'string' ? [item] : item) {
        batch.add(encoder.record(json));
        if (batch.size >= chunkBytes) yield batch.take();
      }
    }
  } else {
    for (const item of records) {
      for (const json of typeof item === 'string' ? [item] : item) {
        batch.add(encoder.record(json));
        if (batch.size >= chunkBytes) yield batch.take();
      }
    }
  }
  batch.add(encoder.tail());
  if (batch.size > 0) yield batch.take();
}

function isAsyncIterable<T>(x: AsyncIterable<T> | Iterable<T>): x is AsyncIterable<T> {
  return typeof (x as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function';
}

/** Accumulates strings (concatenated, encoded once per chunk) and Buffers. */
class Batch {
  /** Approximate size: bytes of buffers + UTF-16 length of pending text. */
  size = 0;
  private text = '';
  private parts: Buffer[] = [];

  add(piece: Buffer | string): void {
    if (typeof piece === 'string') {
      this.text += piece;
      this.size += piece.length;
    } else if (piece.length > 0) {
      this.flushText();
      this.parts.push(piece);
      this.size += piece.length;
    }
  }

  take(): Buffer {
    this.flushText();
    const parts = this.parts;
    const out = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    this.parts = [];
    this.size = 0;
    return out;
  }

  private flushText(): void {
    if (this.text !== '') {
      this.parts.push(Buffer.from(this.text, 'utf8'));
      this.text = '';
    }
  }
}
