import { Inject, Injectable } from '@nestjs/common';
import { SCHEDULE_DELETED, SCHEDULE_SET, ScheduleDeleted, SCHEDULES_TOPIC, ScheduleSet } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { SCHEDULES_VIEW, SchedulesView } from '../ports/schedules.view';

@AsProjection()
@Injectable()
export class SchedulesProjection implements Projection {
  readonly topics = [SCHEDULES_TOPIC];

  constructor(@Inject(SCHEDULES_VIEW) private readonly view: SchedulesView) {}

  async apply(e: LoggedEvent): Promise<void> {
    if (e.event.type === SCHEDULE_SET) {
      const { by, ...d } = e.event.data as ScheduleSet;
      const before = await this.view.get(d.project, d.id);
      return this.view.put(e, { ...d, createdAt: before?.createdAt ?? e.event.occurredAt, updatedBy: by });
    }
    if (e.event.type === SCHEDULE_DELETED) {
      const d = e.event.data as ScheduleDeleted;
      return this.view.remove(e, d.project, d.id);
    }
  }
}
