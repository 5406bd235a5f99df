import Database from 'better-sqlite3';
import { decodeEvent, encodeEvent, EventEnvelope } from '@crawlhub/contracts';
import { ConsumeOptions, Consumption, EventLog, LoggedEvent, LogPosition } from '../../event-log.port';
import { partitionForKey } from '../../partitioner';
import { PipelinedPartitions } from '../../pipelined-partitions';
import { isolatePoisonMessages } from '../../poison-messages';
import { ThreadSignal } from '../../thread-signal';
import { PartitionSlot, partitionSlot, PartitionsToRead } from './partitions-to-read';
import { GroupMembers, memberIdOfThisProcess, membersFileOf } from './group-members';
import { WalCheckpointer } from './wal-checkpointer';

export interface SqliteEventLogOptions {
  /** Path of the database file (`:memory:` is refused: the log must survive restarts). */
  file: string;
  /** Partitions of every topic created by this instance. */
  partitions: number;
  /** A member whose heartbeat is older than this is considered gone (its partitions move). */
  sessionTimeoutMs?: number;
  /** How often an idle member looks for appends made by other processes. */
  pollIntervalMs?: number;
  /** At most this many events per consumed batch. */
  maxBatchEvents?: number;
  /** How long a statement waits for another process's lock on the file (default 10 s). */
  busyTimeoutMs?: number;
}

interface PendingAppend {
  topic: string;
  /** Each event's key and wire form, encoded before it joined the queue. */
  events: { key: string; value: Buffer }[];
  resolve: (positions: LogPosition[]) => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH_BYTES = 8 * 1024 * 1024;
/** Bulk events are hundreds of KB: large pages keep them off long overflow chains. */
const LOG_PAGE_SIZE = 65536;
const TOPIC_NAME = /^[a-z][a-z0-9-]{0,100}$/;

/**
 * The embedded event log: one SQLite file (WAL, synchronous=FULL, so an append is on
 * disk before it is acknowledged), one table per topic, partitioned like Kafka.
 * Appends queued in the same tick share one transaction (group commit); each is encoded
 * before it joins them, so an event that cannot be encoded fails its own append only.
 * Consumer groups keep their offsets in the same file and their members in a small one
 * beside it (GroupMembers), so several processes can share one log. An idle log writes
 * only heartbeats, and only to the members' file.
 */
export class SqliteEventLog implements EventLog {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly partitionsByTopic = new Map<string, number>();
  /** After each committed append, the partitions it appended to. */
  private readonly appended: ThreadSignal<PartitionSlot[]>;
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  private readonly consumers = new Set<SqliteConsumer>();
  private closed = false;
  private readonly statements = new Map<string, Database.Statement>();
  readonly members: GroupMembers;
  private readonly checkpointer: WalCheckpointer;

  /**
   * Group offsets are written through a second connection without fsync: losing the
   * last commit on a power cut only means redelivery, which handlers tolerate.
   */
  private offsetsDb: Database.Database | null = null;
  private readonly offsetStatements = new Map<string, Database.Statement>();

  offsetStatement(sql: string): Database.Statement {
    if (!this.offsetsDb) {
      this.offsetsDb = new Database(this.options.file);
      this.offsetsDb.pragma('synchronous = NORMAL');
      this.offsetsDb.pragma(`wal_autocheckpoint = ${WalCheckpointer.backstopPages(LOG_PAGE_SIZE)}`);
      this.offsetsDb.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
    let st = this.offsetStatements.get(sql);
    if (!st) {
      st = this.offsetsDb.prepare(sql);
      this.offsetStatements.set(sql, st);
    }
    return st;
  }

  /** Prepared statements are reused: preparing costs more than running them. */
  statement(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  private get busyTimeoutMs(): number {
    return this.options.busyTimeoutMs ?? 10_000;
  }

  constructor(private readonly options: SqliteEventLogOptions) {
    if (options.file === ':memory:') throw new Error('the event log needs a file');
    this.db = new Database(options.file);
    this.appended = new ThreadSignal<PartitionSlot[]>(`crawlhub:log:${options.file}`);
    this.db.pragma(`page_size = ${LOG_PAGE_SIZE}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    // Checkpoints run on the checkpointer's thread, not inside the commit of an append.
    this.db.pragma(`wal_autocheckpoint = ${WalCheckpointer.backstopPages(LOG_PAGE_SIZE)}`);
    this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS topics (name TEXT PRIMARY KEY, partitions INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS group_offsets (
        group_id TEXT NOT NULL, topic TEXT NOT NULL, partition INTEGER NOT NULL, next_offset INTEGER NOT NULL,
        PRIMARY KEY (group_id, topic, partition)) WITHOUT ROWID;
      DROP TABLE IF EXISTS group_members; -- moved to the members' file (GroupMembers)
    `);
    for (const row of this.db.prepare('SELECT name, partitions FROM topics').all() as { name: string; partitions: number }[]) {
      this.partitionsByTopic.set(row.name, row.partitions);
    }
    this.members = new GroupMembers(membersFileOf(options.file), this.sessionTimeoutMs, this.busyTimeoutMs);
    this.checkpointer = new WalCheckpointer(options.file);
  }

  get pollIntervalMs(): number {
    return this.options.pollIntervalMs ?? 100;
  }
  get sessionTimeoutMs(): number {
    return this.options.sessionTimeoutMs ?? 10_000;
  }
  get maxBatchEvents(): number {
    return this.options.maxBatchEvents ?? 256;
  }

  async ensureTopics(topics: string[]): Promise<void> {
    const create = this.db.transaction((names: string[]) => {
      for (const name of names) {
        if (!TOPIC_NAME.test(name)) throw new Error(`invalid topic name ${JSON.stringify(name)}`);
        this.db.prepare('INSERT OR IGNORE INTO topics (name, partitions) VALUES (?, ?)').run(name, this.options.partitions);
        // A rowid table: events carry bulk lines (hundreds of KB), and a WITHOUT ROWID table keeps
        // its rows in the key's b-tree, where rows that large cost about twice as much to write
        // and to read (SQLite advises against it past a twentieth of a page). Files made before
        // keep their WITHOUT ROWID tables: the statements are the same for both.
        this.db.exec(`CREATE TABLE IF NOT EXISTS "${tableOf(name)}" (
          partition INTEGER NOT NULL, offset INTEGER NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,
          PRIMARY KEY (partition, offset))`);
        const row = this.db.prepare('SELECT partitions FROM topics WHERE name = ?').get(name) as { partitions: number };
        this.partitionsByTopic.set(name, row.partitions);
      }
    });
    create(topics);
  }

  partitionCount(topic: string): number {
    const n = this.partitionsByTopic.get(topic);
    if (n === undefined) throw new Error(`unknown topic ${topic}`);
    return n;
  }

  append(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    if (this.closed) return Promise.reject(new Error('event log closed'));
    let encoded: PendingAppend['events'];
    try {
      this.partitionCount(topic);
      encoded = events.map((event) => ({ key: event.key, value: encodeEvent(event) }));
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ topic, events: encoded, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const results: LogPosition[][] = [];
    /** The next offset of each partition appended to. */
    const next = new Map<PartitionSlot, number>();
    try {
      const write = this.db.transaction(() => {
        for (const request of batch) {
          const positions: LogPosition[] = [];
          const table = tableOf(request.topic);
          const partitions = this.partitionCount(request.topic);
          const insert = this.statement(`INSERT INTO "${table}" (partition, offset, key, value) VALUES (?, ?, ?, ?)`);
          const last = this.statement(`SELECT MAX(offset) AS o FROM "${table}" WHERE partition = ?`);
          for (const event of request.events) {
            const partition = partitionForKey(event.key, partitions);
            const slot = partitionSlot(request.topic, partition);
            let offset = next.get(slot);
            if (offset === undefined) {
              const row = last.get(partition) as { o: number | null };
              offset = row.o === null ? 0 : row.o + 1;
            }
            insert.run(partition, offset, event.key, event.value);
            next.set(slot, offset + 1);
            positions.push({ topic: request.topic, partition, offset });
          }
          results.push(positions);
        }
      });
      write.immediate();
    } catch (err) {
      for (const request of batch) request.reject(err);
      return;
    }
    batch.forEach((request, i) => request.resolve(results[i]));
    this.appended.notify([...next.keys()]);
  }

  async consume(options: ConsumeOptions): Promise<Consumption> {
    for (const topic of options.topics) this.partitionCount(topic);
    const consumer = new SqliteConsumer(this, this.db, { ...options, handler: isolatePoisonMessages(options) });
    this.consumers.add(consumer);
    consumer.start();
    return {
      assignment: () => consumer.assignment(),
      stop: async () => {
        await consumer.stop();
        this.consumers.delete(consumer);
      },
    };
  }

  async read(topic: string, partition: number, fromOffset: number, limit: number): Promise<LoggedEvent[]> {
    return this.readSync(topic, partition, fromOffset, limit);
  }

  /** At most `limit` events, and no more than about MAX_BATCH_BYTES of them (bulk events are large). */
  readSync(topic: string, partition: number, fromOffset: number, limit: number): LoggedEvent[] {
    const rows = this
      .statement(`SELECT offset, value FROM "${tableOf(topic)}" WHERE partition = ? AND offset >= ? ORDER BY offset LIMIT ?`)
      .iterate(partition, fromOffset, limit) as IterableIterator<{ offset: number; value: Buffer }>;
    const events: LoggedEvent[] = [];
    let bytes = 0;
    for (const r of rows) {
      events.push({ topic, partition, offset: r.offset, event: decodeEvent(r.value) });
      bytes += r.value.length;
      if (bytes >= MAX_BATCH_BYTES) break;
    }
    return events;
  }

  async endOffsets(topic: string): Promise<number[]> {
    const n = this.partitionCount(topic);
    const rows = this.db
      .prepare(`SELECT partition, MAX(offset) AS o FROM "${tableOf(topic)}" GROUP BY partition`)
      .all() as { partition: number; o: number }[];
    const ends = new Array<number>(n).fill(0);
    for (const r of rows) ends[r.partition] = r.o + 1;
    return ends;
  }

  /** Calls `listener` with the partitions of every append committed in this process, until the returned function is called. */
  onAppend(listener: (slots: PartitionSlot[]) => void): () => void {
    return this.appended.listen(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.consumers].map((c) => c.stop()));
    this.consumers.clear();
    if (this.flushScheduled || this.pending.length) this.flush();
    this.closed = true;
    this.appended.close();
    this.offsetsDb?.close();
    this.db.close();
    await Promise.all([this.members.close(), this.checkpointer.close()]);
  }
}

function tableOf(topic: string): string {
  return `log_${topic.replace(/-/g, '_')}`;
}

/** One member of a consumer group, polling its share of the partitions. */
class SqliteConsumer {
  private readonly memberId = memberIdOfThisProcess();
  private readonly signal = { stopped: false };
  private loop: Promise<void> | null = null;
  private current: Record<string, number[]> = {};
  /** Failures of the log file in a row (each pause is longer). */
  private storeFailures = 0;
  private readonly toRead: PartitionsToRead;
  private stopListening: () => void = () => undefined;

  constructor(
    private readonly log: SqliteEventLog,
    private readonly db: Database.Database,
    private readonly options: ConsumeOptions,
  ) {
    this.toRead = new PartitionsToRead(new Set(options.topics), log.pollIntervalMs);
  }

  assignment(): Record<string, number[]> {
    return this.current;
  }

  start(): void {
    this.log.members.join(this.options.groupId, this.memberId);
    this.stopListening = this.log.onAppend((slots) => this.toRead.appended(slots));
    this.loop = this.run();
  }

  /** Leaves the group; a handler that is still running is not waited for beyond a bound. */
  async stop(): Promise<void> {
    this.signal.stopped = true;
    this.stopListening();
    this.toRead.interrupt();
    await Promise.race([this.loop, sleep(this.log.sessionTimeoutMs)]);
    try {
      this.log.members.leave(this.options.groupId, this.memberId);
    } catch {
      /* the database may already be closed */
    }
  }

  /** Range-free round robin over (topic, partition) pairs among live members sorted by id. */
  private rebalance(): void {
    const members = this.log.members.live(this.options.groupId);
    const me = Math.max(0, members.indexOf(this.memberId));
    const n = Math.max(1, members.length);
    const assignment: Record<string, number[]> = {};
    let slot = 0;
    for (const topic of this.options.topics) {
      assignment[topic] = [];
      for (let p = 0; p < this.log.partitionCount(topic); p++, slot++) {
        if (slot % n === me) assignment[topic].push(p);
      }
    }
    this.current = assignment;
  }

  private committedOffset(topic: string, partition: number): number {
    const row = this.log
      .statement('SELECT next_offset FROM group_offsets WHERE group_id = ? AND topic = ? AND partition = ?')
      .get(this.options.groupId, topic, partition) as { next_offset: number } | undefined;
    if (row) return row.next_offset;
    if (this.options.fromBeginning === false) {
      const last = this.db.prepare(`SELECT MAX(offset) AS o FROM "${tableOf(topic)}" WHERE partition = ?`).get(partition) as {
        o: number | null;
      };
      const start = last.o === null ? 0 : last.o + 1;
      this.commit(topic, partition, start);
      return start;
    }
    return 0;
  }

  /** Records the group's next offset (see offsetStatement: no fsync). */
  private commit(topic: string, partition: number, nextOffset: number): void {
    this.log
      .offsetStatement(
        `INSERT INTO group_offsets (group_id, topic, partition, next_offset) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_id, topic, partition) DO UPDATE SET next_offset = excluded.next_offset`,
      )
      .run(this.options.groupId, topic, partition, nextOffset);
  }

  private run(): Promise<void> {
    if (this.options.pipeline) return this.runPipelined(this.options.pipeline.maxEventsInFlight);
    const concurrently = this.options.partitionsConcurrently ?? 1;
    return concurrently > 1 ? this.runConcurrently(concurrently) : this.runInTurn();
  }

  /**
   * A pipelined consumption (ConsumeOptions.pipeline): every partition is read on from
   * where its last batch handed out ended, while the pipeline has room; the pipeline
   * commits each partition's offset in order as its batches finish.
   */
  private async runPipelined(maxEventsInFlight: number): Promise<void> {
    let wake: () => void = () => undefined;
    const retryAt = new Map<string, number>();
    const pipeline = new PipelinedPartitions(maxEventsInFlight, {
      commit: (topic, partition, next) => {
        try {
          this.commit(topic, partition, next);
        } catch (e) {
          process.emitWarning(`event log consumer ${this.options.groupId}: offset ${topic}/${partition}@${next} not committed: ${(e as Error).message}`);
        }
      },
      restart: (topic, partition, _from, failures) => {
        const backoff = Math.min(2000, 50 * 2 ** (failures - 1));
        retryAt.set(partitionSlot(topic, partition), performance.now() + backoff);
        setTimeout(() => wake(), backoff).unref();
      },
    });
    let lastRebalance = -Infinity; // rebalance at once
    while (!this.signal.stopped) {
      let started = false;
      try {
        const before = this.current;
        lastRebalance = this.rebalanceIfDue(lastRebalance);
        for (const [topic, partitions] of Object.entries(before)) {
          for (const partition of partitions) if (!this.current[topic]?.includes(partition)) pipeline.forget(topic, partition);
        }
        for (const [topic, partition] of this.toRead.pass(this.current)) {
          if (!pipeline.hasRoom() || (retryAt.get(partitionSlot(topic, partition)) ?? 0) > performance.now()) continue;
          const from = pipeline.position(topic, partition) ?? this.committedOffset(topic, partition);
          const events = this.log.readSync(topic, partition, from, this.log.maxBatchEvents);
          this.toRead.read(topic, partition, events.length > 0);
          if (events.length === 0) continue;
          started = true;
          pipeline.start(topic, partition, events[0].offset, events.length, () => this.options.handler({ topic, partition, events }).finally(() => wake()));
        }
        this.storeFailures = 0;
      } catch (e) {
        await this.pauseAfter(e);
        continue;
      }
      if (!started) await Promise.race([this.toRead.untilAppendedOrDue(this.signal.stopped), new Promise<void>((r) => (wake = r))]);
    }
    await pipeline.idle();
  }

  /** Rebalances when a quarter of the session timeout has passed (heartbeats: GroupMembers); the time of the last rebalance. */
  private rebalanceIfDue(lastRebalance: number): number {
    if (performance.now() - lastRebalance <= this.log.sessionTimeoutMs / 4) return lastRebalance;
    this.rebalance();
    this.toRead.readAll();
    return performance.now();
  }

  /** Up to `limit` partitions with a batch in flight each; a partition's offset is committed when its batch is done. */
  private async runConcurrently(limit: number): Promise<void> {
    const inFlight = new Map<string, Promise<void>>();
    const failures = new Map<string, { count: number; retryAt: number }>();
    let wake: () => void = () => undefined;
    let lastRebalance = -Infinity; // rebalance at once
    while (!this.signal.stopped) {
      let started = false;
      try {
        lastRebalance = this.rebalanceIfDue(lastRebalance);
        for (const [topic, partition] of this.toRead.pass(this.current)) {
          const slot = partitionSlot(topic, partition);
          if (inFlight.size >= limit || inFlight.has(slot) || (failures.get(slot)?.retryAt ?? 0) > performance.now()) continue;
          const events = this.log.readSync(topic, partition, this.committedOffset(topic, partition), this.log.maxBatchEvents);
          this.toRead.read(topic, partition, events.length > 0);
          if (events.length === 0) continue;
          started = true;
          const batch = (async () => {
            try {
              await this.options.handler({ topic, partition, events });
              this.commit(topic, partition, events[events.length - 1].offset + 1);
              failures.delete(slot);
            } catch {
              const count = (failures.get(slot)?.count ?? 0) + 1;
              failures.set(slot, { count, retryAt: performance.now() + Math.min(2000, 50 * 2 ** (count - 1)) });
            } finally {
              inFlight.delete(slot);
              wake();
            }
          })();
          inFlight.set(slot, batch);
        }
        this.storeFailures = 0;
      } catch (e) {
        await this.pauseAfter(e);
        continue;
      }
      if (!started) await Promise.race([this.toRead.untilAppendedOrDue(this.signal.stopped), new Promise<void>((r) => (wake = r))]);
    }
    await Promise.all(inFlight.values());
  }

  /**
   * A read, commit or heartbeat of the log file failed (SQLITE_BUSY past busy_timeout while
   * other processes write, a full disk): never a crash; the loop waits, longer each time
   * in a row, and goes on from the committed offsets.
   */
  private async pauseAfter(e: unknown): Promise<void> {
    this.storeFailures++;
    const waitMs = Math.min(5000, 100 * 2 ** (this.storeFailures - 1));
    process.emitWarning(`event log consumer ${this.options.groupId}: ${(e as Error).message}; retrying in ${waitMs} ms`);
    await sleep(waitMs);
  }

  private async runInTurn(): Promise<void> {
    let backoff = 0;
    let lastRebalance = -Infinity; // rebalance at once
    while (!this.signal.stopped) {
      let delivered = false;
      let failed = false;
      try {
        lastRebalance = this.rebalanceIfDue(lastRebalance);
        for (const [topic, partition] of this.toRead.pass(this.current)) {
          if (this.signal.stopped) return;
          const from = this.committedOffset(topic, partition);
          const events = this.log.readSync(topic, partition, from, this.log.maxBatchEvents);
          this.toRead.read(topic, partition, events.length > 0);
          if (events.length === 0) continue;
          delivered = true;
          try {
            await this.options.handler({ topic, partition, events });
          } catch {
            failed = true;
            continue;
          }
          this.commit(topic, partition, events[events.length - 1].offset + 1);
        }
        this.storeFailures = 0;
      } catch (e) {
        await this.pauseAfter(e);
        continue;
      }
      if (failed) {
        backoff = Math.min(2000, backoff ? backoff * 2 : 50);
        await sleep(backoff);
      } else {
        backoff = 0;
        if (!delivered) await this.toRead.untilAppendedOrDue(this.signal.stopped);
      }
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
