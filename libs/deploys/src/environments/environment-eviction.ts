import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PythonEnvironments } from './python-environments';

/** How often a runner evicts environments on its own (a build evicts after itself as well). */
export const EVICT_EVERY_MS = 3_600_000;

/**
 * Evicts this machine's environments at start and every hour, so that environments unused
 * for DEPLOY_ENV_MAX_IDLE_MS, or past DEPLOY_ENV_MAX_BYTES, go also on a runner that
 * builds nothing more (eviction otherwise runs only after a build).
 */
@Injectable()
export class EnvironmentEviction implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Environments');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly envs: PythonEnvironments) {}

  onApplicationBootstrap(): void {
    this.running = this.evict();
    this.timer = setInterval(() => {
      this.running ??= this.evict();
    }, EVICT_EVERY_MS);
    this.timer.unref();
  }

  /** The eviction under way, if any (tests wait for the one at start). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async evict(): Promise<void> {
    try {
      const removed = await this.envs.evict();
      if (removed.length) this.logger.log(`removed unused environments: ${removed.join(', ')}`);
    } catch (e) {
      this.logger.warn(`evicting environments failed: ${(e as Error).message}`);
    } finally {
      this.running = null;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
