import { Inject, Injectable } from '@nestjs/common';
import {
  SPIDER_COMMANDS_REGISTERED, SPIDER_COMMANDS_TOPIC, SPIDER_COMMANDS_UNREGISTERED, SpiderCommandsRegistered, SpiderCommandsUnregistered,
} from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { SPIDER_COMMANDS_VIEW, SpiderCommandsView } from '../ports/spider-commands.view';

/** Registrations and removals of spider commands, per project, in log order. */
@AsProjection()
@Injectable()
export class SpiderCommandsProjection implements Projection {
  readonly topics = [SPIDER_COMMANDS_TOPIC];

  constructor(@Inject(SPIDER_COMMANDS_VIEW) private readonly view: SpiderCommandsView) {}

  async apply(e: LoggedEvent): Promise<void> {
    const { event } = e;
    const registeredBy = `${event.actor.kind}:${event.actor.id}`;
    if (event.type === SPIDER_COMMANDS_REGISTERED) {
      const d = event.data as SpiderCommandsRegistered;
      await this.view.register(e, d.spiders.map((s) => ({ ...s, project: d.project, registeredAt: event.occurredAt, registeredBy })));
    } else if (event.type === SPIDER_COMMANDS_UNREGISTERED) {
      const d = event.data as SpiderCommandsUnregistered;
      await this.view.unregister(e, d.project, d.spiders);
    }
  }
}
