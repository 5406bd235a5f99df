import { Collection } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { DecidedViews } from '../../fact-decider';
import { MongoViewDatabase } from './mongo-view-database';

/** The last request of a partition of a decider's topic whose fact is folded. */
interface DecidedThroughDoc {
  _id: number;
  requestOffset: number;
}

/**
 * What the views of every fact decider (jobs, frontier, proxy sessions) keep alike on
 * MongoDB: the decided-through mark of each partition of the decider's topic, one
 * document `{ _id: partition, requestOffset }` in the collection `marks`, and whether the
 * views were built by the release that decided while projecting (a document left in
 * `beforeFacts`, the collection that release kept its decisions in: a replay drops every
 * collection, and no code writes that one any more). Their MongoDB adapters extend it.
 */
export abstract class MongoDecidedViews implements DecidedViews {
  constructor(protected readonly views: MongoViewDatabase, private readonly collections: { marks: string; beforeFacts: string }) {}

  private get marks(): Collection<DecidedThroughDoc> {
    return this.views.db.collection<DecidedThroughDoc>(this.collections.marks);
  }

  async decidedThrough(partition: number): Promise<number> {
    return (await this.marks.findOne({ _id: partition }))?.requestOffset ?? -1;
  }

  /** Written last of a fact's documents (no transactions): a fact whose mark is there has its documents written. */
  async markDecided(_at: LogPosition, partition: number, requestOffset: number): Promise<void> {
    // $max: folding an older fact again never moves the mark back.
    await this.marks.updateOne({ _id: partition }, { $max: { requestOffset } }, { upsert: true });
  }

  async builtBeforeFacts(): Promise<boolean> {
    return (await this.views.db.collection(this.collections.beforeFacts).findOne({})) !== null;
  }
}
