import { LoggedEvent, LogPosition } from '@crawlhub/eventlog';
import { applyFrom, SerialQueue } from '../../apply-in-order';
import { ProjectionStore } from '../../projection-store.port';
import { MongoViewDatabase } from './mongo-view-database';

interface CheckpointDoc {
  _id: string;
  next: number;
}

/**
 * Without transactions, "exactly once in effect" comes from the views themselves: every
 * view document written by a projection carries the log offset of the event that last
 * changed it (`_o`), and adapters skip a change whose offset is not newer. Aggregates
 * that depend on prior state (stats) are written before the records they count. The
 * checkpoint advances after the batch, so a crash re-applies, harmlessly, at most a batch.
 */
export class MongoProjectionStore implements ProjectionStore {
  private readonly queue = new SerialQueue();

  constructor(private readonly views: MongoViewDatabase, private readonly pollMs = 20) {}

  private get checkpoints() {
    return this.views.db.collection<CheckpointDoc>('projection_checkpoints');
  }

  applyBatch(topic: string, partition: number, events: LoggedEvent[], apply: (e: LoggedEvent) => Promise<void>): Promise<void> {
    return this.queue.run(async () => {
      const next = await this.nextOffset(topic, partition);
      const last = await applyFrom(events, next, apply);
      if (last >= next) {
        await this.checkpoints.updateOne({ _id: `${topic}:${partition}` }, { $max: { next: last + 1 } }, { upsert: true });
      }
    });
  }

  async nextOffset(topic: string, partition: number): Promise<number> {
    const doc = await this.checkpoints.findOne({ _id: `${topic}:${partition}` });
    return doc?.next ?? 0;
  }

  async waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ids = [...new Set(positions.map((p) => `${p.topic}:${p.partition}`))];
      const docs = await this.checkpoints.find({ _id: { $in: ids } }).toArray();
      const next = new Map(docs.map((d) => [d._id, d.next]));
      if (positions.every((p) => (next.get(`${p.topic}:${p.partition}`) ?? 0) > p.offset)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }

  async reset(): Promise<void> {
    await this.queue.idle();
    await this.views.dropAll();
  }

  async close(): Promise<void> {
    await this.queue.idle();
    await this.views.close();
  }
}
