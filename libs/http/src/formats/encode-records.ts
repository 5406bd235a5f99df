import { RecordEncoder } from './types';

/**
 * A page of records as a store keeps them: each record's compact JSON text followed by
 * `\n` (JSON lines). Compact JSON has no raw newline, so every `\n` ends a record. The
 * encoder may rewrite the bytes in place: the page belongs to the response.
 */
export class JsonLinesPage {
  constructor(readonly bytes: Buffer) {}

  /** The records' texts, for encoders that work record by record. */
  texts(): string[] {
    const text = this.bytes.toString('utf8');
    return text === '' ? [] : text.slice(0, -1).split('\n');
  }
}

/**
 * One record's JSON text, or a page of them (a page costs one await instead of one per
 * record), or a page of stored bytes (jl and json pass those on without decoding them).
 */
export type RecordOrPage = string | readonly string[] | JsonLinesPage;

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
      if (item instanceof JsonLinesPage && encoder.jsonLines) {
        yield* passOn(batch, encoder.jsonLines(item.bytes));
        continue;
      }
      for (const json of texts(item)) {
        batch.add(encoder.record(json));
        if (batch.size >= chunkBytes) yield batch.take();
      }
    }
  } else {
    for (const item of records) {
      if (item instanceof JsonLinesPage && encoder.jsonLines) {
        yield* passOn(batch, encoder.jsonLines(item.bytes));
        continue;
      }
      for (const json of texts(item)) {
        batch.add(encoder.record(json));
        if (batch.size >= chunkBytes) yield batch.take();
      }
    }
  }
  batch.add(encoder.tail());
  if (batch.size > 0) yield batch.take();
}

function texts(item: RecordOrPage): readonly string[] {
  if (typeof item === 'string') return [item];
  return item instanceof JsonLinesPage ? item.texts() : item;
}

/** What is batched so far, then an encoded page as it is (a page is already larger than a chunk: no copy into one). */
function* passOn(batch: Batch, pieces: Buffer[]): Generator<Buffer> {
  if (batch.size > 0) yield batch.take();
  for (const piece of pieces) if (piece.length > 0) yield piece;
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
