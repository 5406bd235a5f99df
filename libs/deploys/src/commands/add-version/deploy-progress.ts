import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DEPLOY_BUILT, DEPLOY_FAILED, DEPLOY_LOG, DeployBuilt, DeployFailed, DeployLog, DEPLOYS_TOPIC, Ids, IDS } from '@crawlhub/contracts';
import { ConsumedBatch, Consumption, EVENT_LOG, EventLog, LoggedEvent } from '@crawlhub/eventlog';

const ASSIGNMENT_WAIT_MS = 60_000;

export type DeployStep = { type: 'log'; lines: string[] } | { type: 'built'; data: DeployBuilt; at: LoggedEvent } | { type: 'failed'; data: DeployFailed; at: LoggedEvent };

/**
 * How an API process follows the deploys it waits for: it consumes the `deploys` topic
 * with a consumer group of its own that starts at the end (as AwaitedResults does for
 * fetch results), and hands each log batch and the outcome of a watched deploy to its
 * watcher, in log order; events of other deploys are dropped.
 */
@Injectable()
export class DeployProgress implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly watchers = new Map<string, (step: DeployStep) => void>();
  private consumption: Consumption | null = null;

  constructor(@Inject(EVENT_LOG) private readonly eventLog: EventLog, @Inject(IDS) private readonly ids: Ids) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.eventLog.ensureTopics([DEPLOYS_TOPIC]);
    this.consumption = await this.eventLog.consume({ groupId: `deploy-progress-${this.ids.uuid()}`, topics: [DEPLOYS_TOPIC], fromBeginning: false, handler: async (b) => this.deliver(b) });
    const partitions = this.eventLog.partitionCount(DEPLOYS_TOPIC);
    const until = performance.now() + ASSIGNMENT_WAIT_MS;
    while ((this.consumption.assignment()[DEPLOYS_TOPIC]?.length ?? 0) < partitions && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumption?.stop();
  }

  /** The steps of one deploy, as they come; call before appending its request. Ends with its outcome, or at `stop()`. */
  watch(request: string): { steps: AsyncIterable<DeployStep>; stop(): void } {
    const queue: DeployStep[] = [];
    let wake: (() => void) | null = null;
    let stopped = false;
    this.watchers.set(request, (step) => {
      queue.push(step);
      wake?.();
    });
    const stop = () => {
      stopped = true;
      this.watchers.delete(request);
      wake?.();
    };
    async function* steps(): AsyncIterable<DeployStep> {
      for (;;) {
        while (queue.length) {
          const step = queue.shift()!;
          yield step;
          if (step.type !== 'log') return stop();
        }
        if (stopped) return;
        await new Promise<void>((r) => (wake = r));
        wake = null;
      }
    }
    return { steps: steps(), stop };
  }

  private deliver(batch: ConsumedBatch): void {
    for (const e of batch.events) {
      const data = e.event.data as { request?: string };
      const watcher = typeof data?.request === 'string' ? this.watchers.get(data.request) : undefined;
      if (!watcher) continue;
      if (e.event.type === DEPLOY_LOG) watcher({ type: 'log', lines: (data as DeployLog).lines });
      else if (e.event.type === DEPLOY_BUILT) watcher({ type: 'built', data: data as DeployBuilt, at: e });
      else if (e.event.type === DEPLOY_FAILED) watcher({ type: 'failed', data: data as DeployFailed, at: e });
    }
  }
}
