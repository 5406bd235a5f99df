import { Inject, Injectable } from '@nestjs/common';
import { Actor, FRONTIER_TOPIC, frontierSlotKey } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { FRONTIER_VIEW, FrontierView, SlotRef } from '../ports/frontier.view';

/**
 * The one write path of the frontier use cases (their handlers call it): appends a request
 * to its slot's stream in the topic `frontier` and resolves once the views have folded the
 * fact the slot's decider appended for it (its outcome and the documents it wrote are
 * readable); ProjectionLagError (503) after the read-your-writes bound.
 */
@Injectable()
export class FrontierDecisions {
  constructor(private readonly writer: EventWriter, @Inject(FRONTIER_VIEW) private readonly view: FrontierView) {}

  /** A new request's id (the process's IDS): its outcome is kept under it. */
  newRequestId(): string {
    return this.writer.ids.uuid();
  }

  async decide<T>(slot: SlotRef, request: { type: string; data: T; lines?: string[] }, actor: Actor): Promise<void> {
    const { project, frontier, slot: name } = slot;
    const [appended] = await this.writer.append(FRONTIER_TOPIC, [this.writer.createEvent({ ...request, key: frontierSlotKey(project, frontier, name), actor })]);
    await this.writer.waitForDecision(this.view, appended);
  }
}
