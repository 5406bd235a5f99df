import { Actor } from '@crawlhub/contracts';

/** A runner says it is alive to each project whose jobs it runs (see RUNNER_HEARTBEAT). */
export class RunnerHeartbeatCommand {
  constructor(readonly runner: string, readonly projects: number[], readonly actor: Actor) {}
}
