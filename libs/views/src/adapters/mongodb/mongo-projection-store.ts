import { mongodbDriver } from './mongodb-driver';
import { LoggedEvent, LogPosition, ThreadSignal } from '@crawlhub/eventlog';
import { applyFrom, SerialQueue } from '../../apply-in-order';
import { ProjectionFailedError, ProjectionStore } from '../../projection-store.port';
import { MongoViewDatabase } from './mongo-view-database';
import { Clock } from '@crawlhub/contracts';

interface CheckpointDoc {
  _id: string;
  next: number;
}

/** An event skipped as poison: `_id` is `topic:partition:offset`. */
interface FailureDoc {
  _id: string;
  topic: string;
  partition: number;
  offset: number;
  eventId: string;
  type: string;
  key: string;
  error: string;
  failedAt: Date;
}

/** Server errors that say the server cannot take writes now (not primary, shutting down, out of disk). */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 14031]);

/**
 * Without transactions, "exactly once in effect" comes from the views themselves: every
 * view document written by a projection carries the log offset of the event that last
 * changed it (`_o`), and adapters skip a change whose offset is not newer. Aggregates
 * that depend on prior state (stats) are written before the records they count. The
 * checkpoint advances after the batch, so a crash re-applies, harmlessly, at most a batch.
 */
export class MongoProjectionStore implements ProjectionStore {
  private readonly queue = new SerialQueue();
  private readonly progressed: ThreadSignal;

  constructor(private readonly views: MongoViewDatabase, private readonly clock: Clock, private readonly pollMs = 20) {
    this.progressed = new ThreadSignal(`crawlhub:views:mongodb:${views.db.databaseName}`);
  }

  private get checkpoints() {
    return this.views.db.collection<CheckpointDoc>('projection_checkpoints');
  }

  applyBatch(topic: string, partition: number, events: LoggedEvent[], apply: (e: LoggedEvent) => Promise<void>): Promise<void> {
    return this.queue.run(async () => {
      const next = await this.nextOffset(topic, partition);
      const last = await applyFrom(events, next, apply);
      if (last >= next) {
        await this.checkpoints.updateOne({ _id: `${topic}:${partition}` }, { $max: { next: last + 1 } }, { upsert: true });
        this.progressed.notify();
      }
    });
  }

  private get failures() {
    return this.views.db.collection<FailureDoc>('projection_failures');
  }

  skipFailed(e: LoggedEvent, error: string): Promise<void> {
    return this.queue.run(async () => {
      if (e.offset < (await this.nextOffset(e.topic, e.partition))) return;
      const doc: FailureDoc = { _id: `${e.topic}:${e.partition}:${e.offset}`, topic: e.topic, partition: e.partition, offset: e.offset, eventId: e.event.id, type: e.event.type, key: e.event.key, error, failedAt: new Date(this.clock.now()) };
      await this.failures.replaceOne({ _id: doc._id }, doc, { upsert: true });
      await this.checkpoints.updateOne({ _id: `${e.topic}:${e.partition}` }, { $max: { next: e.offset + 1 } }, { upsert: true });
    });
  }

  /** The server is out of reach or cannot take writes now: the store's trouble, not the event's. */
  isStoreFailure(error: unknown): boolean {
    const { MongoError, MongoErrorLabel, MongoNetworkError, MongoNotConnectedError, MongoServerSelectionError, MongoTopologyClosedError } = mongodbDriver();
    if (error instanceof MongoNetworkError || error instanceof MongoServerSelectionError || error instanceof MongoNotConnectedError || error instanceof MongoTopologyClosedError) return true;
    if (!(error instanceof MongoError)) return false;
    return error.hasErrorLabel(MongoErrorLabel.RetryableWriteError) || error.hasErrorLabel(MongoErrorLabel.ResetPool) || UNAVAILABLE_CODES.has(Number(error.code));
  }

  async allCheckpoints(): Promise<Map<string, number>> {
    return new Map((await this.checkpoints.find({}).toArray()).map((d) => [d._id, d.next]));
  }

  async nextOffset(topic: string, partition: number): Promise<number> {
    const doc = await this.checkpoints.findOne({ _id: `${topic}:${partition}` });
    return doc?.next ?? 0;
  }

  async waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const ids = [...new Set(positions.map((p) => `${p.topic}:${p.partition}`))];
      const docs = await this.checkpoints.find({ _id: { $in: ids } }).toArray();
      const next = new Map(docs.map((d) => [d._id, d.next]));
      if (positions.every((p) => (next.get(`${p.topic}:${p.partition}`) ?? 0) > p.offset)) {
        const failed = await this.failures.find({ _id: { $in: positions.map((p) => `${p.topic}:${p.partition}:${p.offset}`) } }).toArray();
        if (failed.length) throw new ProjectionFailedError(failed.map((f) => ({ topic: f.topic, partition: f.partition, offset: f.offset })));
        return true;
      }
      if (performance.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }

  nextChange(timeoutMs: number): Promise<void> {
    return this.progressed.wait(timeoutMs);
  }

  async reset(): Promise<void> {
    await this.queue.idle();
    await this.views.dropAll();
  }

  async close(): Promise<void> {
    await this.queue.idle();
    this.progressed.close();
    await this.views.close();
  }
}
