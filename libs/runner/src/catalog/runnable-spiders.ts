import { Inject, Injectable } from '@nestjs/common';
import { currentDeploy, DEPLOYS_VIEW, DeploysView } from '@crawlhub/deploys';
import { RUNNABLE_SPIDERS, RunnableSpiders, SpiderRun } from '@crawlhub/jobs';
import { SPIDER_COMMANDS_VIEW, SpiderCommandsView } from '../ports/spider-commands.view';

/**
 * What run.json needs to know of a spider: the project's current deployed version has it
 * (the job records that version), a command is registered for it, or neither while the
 * project has a deployed version (refused at once, as the original does).
 */
@Injectable()
export class RunnableSpidersService implements RunnableSpiders {
  constructor(@Inject(DEPLOYS_VIEW) private readonly deploys: DeploysView, @Inject(SPIDER_COMMANDS_VIEW) private readonly commands: SpiderCommandsView) {}

  async resolve(project: number, spider: string): Promise<SpiderRun> {
    const current = currentDeploy(await this.deploys.list(project));
    if (current?.spiders.includes(spider)) return { kind: 'deployed', version: current.version, deployId: current.deployId };
    if (await this.commands.get(project, spider)) return { kind: 'registered' };
    return current ? { kind: 'unknown' } : { kind: 'undecided' };
  }

  async current(project: number): Promise<{ version: string; spiders: string[] } | null> {
    const current = currentDeploy(await this.deploys.list(project));
    return current ? { version: current.version, spiders: current.spiders } : null;
  }
}
