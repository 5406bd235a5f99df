import { normalizeRecord, RECORD_KINDS, RecordKind } from '@crawlhub/storage';
import { Clock } from '@crawlhub/contracts';

export const LOG_INFO = 20;
export const LOG_WARNING = 30;
export const LOG_ERROR = 40;

/** Where the sink writes: positional record writes and the job's stats. */
export interface SinkTarget {
  /** Stores `lines` at positions start, start+1...: writing the same batch again changes nothing. */
  writeRecords(kind: RecordKind, start: number, lines: string[]): Promise<void>;
  writeStats(stats: Record<string, unknown>): Promise<void>;
  /** Reports a batch given up after its retries (the runner's own log, not the job's). */
  lost(what: string, error: unknown): void;
}

export interface SinkOptions {
  /** Flush a kind when its batch holds this many records (the original uploads 1000 at a time). */
  batchRecords: number;
  /** ...or this many bytes (one log event of EVENT_CHUNK_BYTES). */
  batchBytes: number;
  /** Largest record; a longer one is dropped with an error log line instead. */
  maxRecordBytes: number;
  /** Retries of a failed write before the batch is given up. */
  retries: number;
  retryDelayMs: number;
  /** The time of the log lines the sink writes itself. */
  clock: Clock;
}

interface Batch {
  start: number;
  lines: string[];
  bytes: number;
}

/**
 * A job's output on its way to storage. Each record gets its position when it arrives
 * (items, logs and requests each count from where the job's data ends), and batches are
 * written with their `start`, so a retried write lands on the same positions: a retry
 * never duplicates anything. Batches are written one at a time, in order; the latest
 * stats follow the records of each flush.
 */
export class RecordSink {
  private readonly next: Record<RecordKind, number>;
  private readonly open = Object.fromEntries(RECORD_KINDS.map((k) => [k, null])) as Record<RecordKind, Batch | null>;
  private queued = 0;
  private chain: Promise<void> = Promise.resolve();
  private stats: Record<string, unknown> | null = null;
  private statsDirty = false;

  constructor(private readonly target: SinkTarget, starts: Record<RecordKind, number>, private readonly options: SinkOptions) {
    this.next = { ...starts };
  }

  /** Records accepted but not yet stored: the caller pauses its sources above a bound. */
  get backlog(): number {
    return this.queued;
  }

  get counts(): Record<RecordKind, number> {
    return { ...this.next };
  }

  /**
   * Adds one record (its JSON text as written, and its parsed value). A record the
   * storage API would refuse is replaced by an error log line saying why, so that one bad
   * record never costs the rest of its batch.
   */
  add(kind: RecordKind, value: Record<string, unknown>, raw?: string): void {
    let json: string;
    try {
      json = normalizeRecord(kind, value, raw).json;
    } catch (e) {
      this.log(LOG_ERROR, `[crawlhub runner] dropped an invalid ${kindName(kind)} record: ${(e as Error).message}`);
      return;
    }
    const bytes = Buffer.byteLength(json);
    if (bytes > this.options.maxRecordBytes) {
      this.log(LOG_ERROR, `[crawlhub runner] dropped ${kindName(kind) === 'item' ? 'an' : 'a'} ${kindName(kind)} record of ${bytes} bytes (the limit is ${this.options.maxRecordBytes} bytes)`);
      return;
    }
    this.push(kind, json, bytes);
  }

  /** A log line of the runner's own, or a line of the job's stdout/stderr. */
  log(level: number, message: string, time = this.options.clock.now()): void {
    // Leave room for the JSON around the message: a line is cut rather than lost.
    const room = Math.max(256, this.options.maxRecordBytes - 256);
    let text = message;
    if (Buffer.byteLength(text) > room) text = `${Buffer.from(text).subarray(0, room - 32).toString('utf8').replace(/\uFFFD+$/, '')} [... cut by crawlhub]`;
    const json = JSON.stringify({ time, level, message: text });
    this.push('logs', json, Buffer.byteLength(json));
  }

  setStats(stats: Record<string, unknown>): void {
    this.stats = stats;
    this.statsDirty = true;
  }

  private push(kind: RecordKind, json: string, bytes: number): void {
    let batch = this.open[kind];
    if (!batch) batch = this.open[kind] = { start: this.next[kind], lines: [], bytes: 0 };
    batch.lines.push(json);
    batch.bytes += bytes;
    this.next[kind]++;
    this.queued++;
    if (batch.lines.length >= this.options.batchRecords || batch.bytes >= this.options.batchBytes) void this.flush(kind);
  }

  /** Writes what is open now (one kind, or every kind and then the stats). Resolves when written. */
  flush(only?: RecordKind): Promise<void> {
    const kinds: readonly RecordKind[] = only ? [only] : RECORD_KINDS;
    const batches = kinds.map((k) => [k, this.open[k]] as const).filter(([, b]) => b !== null) as [RecordKind, Batch][];
    for (const [k] of batches) this.open[k] = null;
    const withStats = !only && this.statsDirty;
    const stats = this.stats;
    if (withStats) this.statsDirty = false;
    this.chain = this.chain.then(async () => {
      for (const [kind, batch] of batches) {
        await this.retry(`${batch.lines.length} ${kind} at position ${batch.start}`, () => this.target.writeRecords(kind, batch.start, batch.lines));
        this.queued -= batch.lines.length;
      }
      if (withStats && stats) await this.retry('the scrapystats metadata', () => this.target.writeStats(stats));
    });
    return this.chain;
  }

  private async retry(what: string, write: () => Promise<void>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await write();
        return;
      } catch (e) {
        if (attempt >= this.options.retries) {
          this.target.lost(what, e);
          return;
        }
        await new Promise((r) => setTimeout(r, Math.min(this.options.retryDelayMs * 2 ** attempt, 5_000)));
      }
    }
  }
}

function kindName(kind: RecordKind): string {
  return kind.replace(/s$/, '');
}
