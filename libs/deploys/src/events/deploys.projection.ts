import { Inject, Injectable } from '@nestjs/common';
import {
  DEPLOY_BUILT, DEPLOY_FAILED, DEPLOY_REQUESTED, DEPLOY_VERSION_DELETED, DEPLOYS_TOPIC, DeployBuilt, DeployFailed, DeployRequested, DeployVersionDeleted,
} from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { DEPLOYS_VIEW, DeploysView } from '../ports/deploys.view';

/**
 * Deploys per project, in log order. A requested deploy takes the project's next deploy
 * id (decided here, so the same on replay); only the first outcome of a deploy counts
 * (a build done twice after a builder's takeover gives two).
 */
@AsProjection()
@Injectable()
export class DeploysProjection implements Projection {
  readonly topics = [DEPLOYS_TOPIC];

  constructor(@Inject(DEPLOYS_VIEW) private readonly view: DeploysView) {}

  async apply(e: LoggedEvent): Promise<void> {
    const { event } = e;
    if (event.type === DEPLOY_REQUESTED) {
      const d = event.data as DeployRequested;
      if (await this.view.byRequest(d.project, d.request)) return;
      await this.view.put(e, {
        project: d.project,
        deployId: (await this.view.lastDeployId(d.project)) + 1,
        request: d.request,
        version: d.version,
        stack: d.stack,
        egg: d.egg,
        eggs: d.eggs,
        requirements: d.requirements,
        state: 'building',
        spiders: [],
        settingsModule: null,
        failure: null,
        requestedAt: event.occurredAt,
        requestedBy: `${event.actor.kind}:${event.actor.id}`,
        builtAt: null,
        deleted: false,
      });
    } else if (event.type === DEPLOY_BUILT || event.type === DEPLOY_FAILED) {
      const d = event.data as DeployBuilt | DeployFailed;
      const doc = await this.view.byRequest(d.project, d.request);
      if (!doc || doc.state !== 'building') return;
      if (event.type === DEPLOY_BUILT) {
        const b = d as DeployBuilt;
        await this.view.put(e, { ...doc, state: 'ok', spiders: b.spiders, settingsModule: b.settingsModule, builtAt: event.occurredAt });
      } else {
        await this.view.put(e, { ...doc, state: 'failed', failure: (d as DeployFailed).reason, builtAt: event.occurredAt });
      }
    } else if (event.type === DEPLOY_VERSION_DELETED) {
      const d = event.data as DeployVersionDeleted;
      await this.view.deleteVersion(e, d.project, d.version);
    }
  }
}
