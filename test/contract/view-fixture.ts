import { createEvent } from '@crawlhub/contracts';
import { LoggedEvent, LogPosition } from '@crawlhub/eventlog';
import { ProjectionStore } from '@crawlhub/views';
import { systemStamps } from '../support/stamps';

/**
 * A view adapter under test, on an empty view store of its own. Writes go through the
 * store's `applyBatch`, as the projector's do (on SQLite that is what opens the write
 * transaction and keeps the checkpoint).
 */
export interface ViewFixture<V> {
  view: V;
  store: ProjectionStore;
  /**
   * true when the adapter itself skips a change that is not newer than what it stored
   * (MongoDB, no transactions): the suite then also replays events straight to the
   * adapter, bypassing the checkpoint, as after a crash between view writes and checkpoint.
   */
  selfGuarded: boolean;
  close(): Promise<void>;
}

export type ViewHarness<V> = () => Promise<ViewFixture<V>>;

/** One event of a fake log partition, and the adapter call that applies it. */
export interface ViewWrite {
  event: LoggedEvent;
  apply: (at: LogPosition) => Promise<void>;
}

/** Feeds writes to a fixture like the projector: at increasing offsets of one partition. */
export class FakeProjector {
  private next = 0;
  constructor(private readonly fixture: ViewFixture<unknown>, private readonly topic = 'contract-views', private readonly partition = 0) {}

  write(apply: (at: LogPosition) => Promise<void>): ViewWrite {
    const event = createEvent({ type: 'contract.view-write', key: 'contract', data: {}, actor: { kind: 'system', id: 'contract' } }, systemStamps);
    return { event: { topic: this.topic, partition: this.partition, offset: this.next++, event }, apply };
  }

  /** Applies the writes as one batch; returns them so they can be replayed. */
  async batch(...applies: ((at: LogPosition) => Promise<void>)[]): Promise<ViewWrite[]> {
    const writes = applies.map((a) => this.write(a));
    await this.deliver(writes);
    return writes;
  }

  async deliver(writes: ViewWrite[]): Promise<void> {
    const byOffset = new Map(writes.map((w) => [w.event.offset, w]));
    await this.fixture.store.applyBatch(this.topic, this.partition, writes.map((w) => w.event), (e) => byOffset.get(e.offset)!.apply(e));
  }

  /**
   * Delivers already applied events again: through the checkpoint (a redelivered batch),
   * and, for self-guarded adapters, straight to the adapter in log order, as a projector
   * does when it crashed after writing views but before its checkpoint.
   */
  async replay(writes: ViewWrite[]): Promise<void> {
    await this.deliver(writes);
    if (this.fixture.selfGuarded) for (const w of writes) await w.apply(w.event);
  }
}

/**
 * A fresh fixture and projector for every test of a contract suite: call inside its
 * `describe`; `use` receives them before each test.
 */
export function eachViewFixture<V>(harness: ViewHarness<V>, use: (fixture: ViewFixture<V>, projector: FakeProjector) => void): void {
  let fixture: ViewFixture<V>;
  beforeEach(async () => {
    fixture = await harness();
    use(fixture, new FakeProjector(fixture));
  });
  afterEach(async () => {
    await fixture.close();
  });
}
