import { Inject, Injectable } from '@nestjs/common';
import { SpiderCommandSpec } from '@crawlhub/contracts';
import { DEPLOYS_VIEW, DeploysView } from '../ports/deploys.view';
import { PythonEnvironments } from '../environments/python-environments';

/** What a job runs when it runs a deployed version: a command for the runner, and the lease on its environment. */
export interface DeployedLaunch {
  spider: SpiderCommandSpec;
  /** Call when the job's process ended: its environment may be evicted again. */
  release(): void;
}

/**
 * The runner's view of deployed versions: which projects and spiders it can claim jobs
 * of, and, for a job that recorded a `deploy_id`, the environment of that deploy on this
 * machine (built here first when this runner has not built it yet, the build log going to
 * the job's log, while the runner goes on with other jobs) and the command that runs it:
 * the environment's interpreter running sh_scrapy's `start-crawl` (`-m sh_scrapy.crawl`)
 * with the settings module of the egg.
 */
@Injectable()
export class DeployedJobs {
  constructor(@Inject(DEPLOYS_VIEW) private readonly deploys: DeploysView, private readonly environments: PythonEnvironments) {}

  /** Projects with a built deploy. */
  projects(): Promise<number[]> {
    return this.deploys.projects();
  }

  /**
   * The spiders of every built deploy of the project (a job keeps the version it was
   * scheduled with, so a spider the current version dropped still runs its pending jobs).
   */
  async spiders(project: number): Promise<string[]> {
    const names = new Set<string>();
    for (const d of await this.deploys.list(project)) if (d.state === 'ok') d.spiders.forEach((s) => names.add(s));
    return [...names].sort();
  }

  /** The job's deploy, or null when it runs no deployed version (a registered command's job). */
  static deployIdOf(meta: Record<string, unknown>): number | null {
    return typeof meta.deploy_id === 'number' && Number.isSafeInteger(meta.deploy_id) ? meta.deploy_id : null;
  }

  /** Prepares the environment of the job's deploy; fails with a message for the job's log. */
  async prepare(project: number, spider: string, deployId: number, log: (line: string) => void): Promise<DeployedLaunch> {
    const deploy = await this.deploys.get(project, deployId);
    if (!deploy || deploy.state !== 'ok') throw new Error(`deploy ${deployId} of project ${project} is not a built deploy`);
    if (!deploy.spiders.includes(spider)) throw new Error(`version ${deploy.version} (deploy ${deployId}) has no spider ${JSON.stringify(spider)}`);
    const spec = { project, stack: deploy.stack, egg: deploy.egg, eggs: deploy.eggs, requirements: deploy.requirements };
    if (!(await this.environments.cached(spec))) {
      log(`[crawlhub runner] the environment of version ${deploy.version} (deploy ${deployId}) is not on this runner: building it, the job starts once it is built`);
    }
    const env = await this.environments.ensure(spec, log);
    const release = this.environments.acquire(env);
    return {
      spider: {
        spider,
        command: [env.python, '-m', 'sh_scrapy.crawl'],
        cwd: null,
        env: { SCRAPY_SETTINGS_MODULE: deploy.settingsModule ?? '', PYTHONPATH: env.egg, PYTHONNOUSERSITE: '1' },
      },
      release,
    };
  }
}
