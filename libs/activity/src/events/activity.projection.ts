import { Inject, Injectable } from '@nestjs/common';
import { ACTIVITY_POSTED, ACTIVITY_TOPIC, ActivityPosted } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { ACTIVITY_VIEW, ActivityView } from '../ports/activity.view';
import { activityMessageId } from './record-activity';

/** Messages posted through the API (`activity.posted`): each line of the event is one message. */
@AsProjection()
@Injectable()
export class ActivityProjection implements Projection {
  readonly topics = [ACTIVITY_TOPIC];

  constructor(@Inject(ACTIVITY_VIEW) private readonly view: ActivityView) {}

  async apply(e: LoggedEvent): Promise<void> {
    const { event } = e;
    if (event.type !== ACTIVITY_POSTED) return;
    const d = event.data as ActivityPosted;
    const lines = event.lines ?? [];
    await this.view.record(
      e,
      d.project,
      lines.map((json, i) => ({ id: activityMessageId(event.id, i), json, ts: event.occurredAt })),
    );
  }
}
