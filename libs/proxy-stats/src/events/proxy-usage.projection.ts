import { Inject, Injectable } from '@nestjs/common';
import { PROXY_USAGE_RECORDED, PROXY_USAGE_TOPIC, ProxyUsageRecorded } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { PROXY_USAGE_VIEW, ProxyUsageView } from '../ports/proxy-usage.view';

/** Adds the partial aggregates of `proxy-usage.recorded` into the user's 5-minute buckets. */
@AsProjection()
@Injectable()
export class ProxyUsageProjection implements Projection {
  readonly topics = [PROXY_USAGE_TOPIC];

  constructor(@Inject(PROXY_USAGE_VIEW) private readonly view: ProxyUsageView) {}

  async apply(e: LoggedEvent): Promise<void> {
    if (e.event.type !== PROXY_USAGE_RECORDED) return;
    const d = e.event.data as ProxyUsageRecorded;
    await this.view.add(e, d.user, d.buckets);
  }
}
