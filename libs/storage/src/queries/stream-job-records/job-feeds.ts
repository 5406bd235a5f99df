import { formatJobKey, JobKey } from '@crawlhub/contracts';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { PROJECTION_STORE, ProjectionStore } from '@crawlhub/views';
import { RecordKind } from '../../domain/record-kinds';
import { JOB_RECORDS_VIEW, JobRecordsView, StoredRecord } from '../../ports/job-records.view';
import { ReadJobMetadataQuery } from '../read-job-metadata/read-job-metadata.query';

/** The record kinds a job's event streams serve. */
export const STREAMED_KINDS: readonly RecordKind[] = ['items', 'logs', 'requests'];

/**
 * How long a feed waits for a wake-up before looking anyway: the bound on a stream's lag
 * when the projector runs in another process (nothing wakes this one then).
 */
const LOOK_EVERY_MS = 250;
/** Records read per scan while a stream catches up. */
export const READ_PAGE = 500;
/** The least time between two looks of one feed, however often the projector wakes it. */
const LOOK_GAP_MS = 20;

/** What a feed saw of its job at one look. */
export interface JobSight {
  /** Counts up whenever the job's records or metadata changed since the previous look. */
  version: number;
  /** The job's metadata (GET jobs/<key>), or null when there is none. */
  metadata: Record<string, unknown> | null;
  /** Whether the job has any record of a streamed kind. */
  hasRecords: boolean;
}

/**
 * One job watched for every stream open on it: one look at a time (the job's record
 * stats and its metadata), after each wake-up of the projection store or every
 * LOOK_EVERY_MS. Streams read records from their own positions when the version moves,
 * through `read`, which shares one scan between the streams asking for the same page at
 * the same version (those following the tail): a thousand streams of one job cost one
 * look and one scan per change, and a stream that lags behind never holds up the others.
 */
class JobFeed {
  private members = 0;
  private sight: JobSight = { version: 0, metadata: null, hasRecords: false };
  private signature: string | null = null;
  private waiters = new Set<() => void>();
  private stopped = false;
  /** Scans in flight, by version, kind and position. */
  private readonly reads = new Map<string, Promise<StoredRecord[]>>();
  readonly first: Promise<void>;

  constructor(private readonly look: () => Promise<{ signature: string; metadata: Record<string, unknown> | null; hasRecords: boolean }>, private readonly store: ProjectionStore) {
    this.first = this.update();
    this.first.then(() => this.run(), () => undefined);
  }

  get current(): JobSight {
    return this.sight;
  }

  get size(): number {
    return this.members;
  }

  join(): void {
    this.members++;
  }

  /** Returns true when the feed has no member left (the caller drops it). */
  leave(): boolean {
    this.members--;
    if (this.members > 0) return false;
    this.stop();
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.wakeAll();
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /**
   * The records of `kind` from position `from` on, read once for every stream asking at
   * this version while the read is in flight (the streams woken by one change ask together);
   * nothing is kept after, so a stream paging through a million records holds one page.
   */
  read(kind: RecordKind, from: number, scan: () => Promise<StoredRecord[]>): Promise<StoredRecord[]> {
    const key = `${this.sight.version}:${kind}:${from}`;
    let page = this.reads.get(key);
    if (!page) {
      page = scan();
      this.reads.set(key, page);
      const forget = () => this.reads.delete(key);
      page.then(forget, forget);
    }
    return page;
  }

  /** Resolves once the version passes `seen`, or the feed stops. */
  changed(seen: number): Promise<void> {
    if (this.sight.version > seen || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  private wakeAll(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const w of waiters) w();
  }

  private async update(): Promise<void> {
    const seen = await this.look();
    if (seen.signature === this.signature) return;
    this.signature = seen.signature;
    this.sight = { version: this.sight.version + 1, metadata: seen.metadata, hasRecords: seen.hasRecords };
    this.wakeAll();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      await this.store.nextChange(LOOK_EVERY_MS);
      if (this.stopped) return;
      await this.update().catch(() => undefined);
      await new Promise((r) => setTimeout(r, LOOK_GAP_MS));
    }
  }
}

/** A stream's membership of its job's feed. */
export interface FeedMembership {
  readonly current: JobSight;
  /** Resolves once the job changed after version `seen`, or the feed closed (see `closed`). */
  changed(seen: number): Promise<void>;
  /** Up to `limit` records of `kind` from position `from` on (a scan shared with the job's other streams). */
  read(kind: RecordKind, from: number): Promise<StoredRecord[]>;
  /** The platform is shutting down: the stream ends. */
  readonly closed: boolean;
  leave(): void;
}

/** The shared watchers of the jobs that have open event streams in this process. */
@Injectable()
export class JobFeeds implements OnModuleDestroy {
  private readonly feeds = new Map<string, JobFeed>();

  constructor(
    @Inject(JOB_RECORDS_VIEW) private readonly records: JobRecordsView,
    @Inject(PROJECTION_STORE) private readonly store: ProjectionStore,
    private readonly queries: QueryBus,
  ) {}

  /** Joins the job's feed (starting it for the first member) once it has looked at the job. */
  async join(job: JobKey): Promise<FeedMembership> {
    const key = formatJobKey(job);
    let feed = this.feeds.get(key);
    if (!feed) {
      feed = new JobFeed(() => this.look(job), this.store);
      this.feeds.set(key, feed);
    }
    feed.join();
    const joined = feed;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      if (joined.leave() && this.feeds.get(key) === joined) this.feeds.delete(key);
    };
    try {
      await joined.first;
    } catch (err) {
      leave();
      throw err;
    }
    return {
      get current() {
        return joined.current;
      },
      changed: (seen) => joined.changed(seen),
      read: (kind, from) => joined.read(kind, from, () => this.records.scan({ kind, ...job, from: { ...job, pos: from }, limit: READ_PAGE })),
      get closed() {
        return joined.isStopped;
      },
      leave,
    };
  }

  /** Jobs watched and streams open on them now (for tests and health checks). */
  usage(): { jobs: number; streams: number } {
    let streams = 0;
    for (const f of this.feeds.values()) streams += f.size;
    return { jobs: this.feeds.size, streams };
  }

  private async look(job: JobKey) {
    const [metadata, ...stats] = await Promise.all([
      this.queries.execute<ReadJobMetadataQuery, Record<string, unknown> | null>(new ReadJobMetadataQuery(job)),
      ...STREAMED_KINDS.map((kind) => this.records.stats(kind, job)),
    ]);
    const records = stats.map((s) => (s ? `${s.inputValues}:${s.inputBytes}` : '-'));
    return { signature: `${records.join(',')}|${JSON.stringify(metadata)}`, metadata, hasRecords: stats.some((s) => s !== null && s.inputValues > 0) };
  }

  /** Ends every stream: they must not hold the HTTP server open at shutdown. */
  onModuleDestroy(): void {
    for (const feed of this.feeds.values()) feed.stop();
    this.feeds.clear();
  }
}
