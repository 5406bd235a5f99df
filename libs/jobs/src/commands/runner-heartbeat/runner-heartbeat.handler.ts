import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JOBS_TOPIC, RUNNER_HEARTBEAT, RunnerHeartbeat } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { RunnerHeartbeatCommand } from './runner-heartbeat.command';

/** One heartbeat event per project, in one append; durable is enough (nobody waits for the views). */
@CommandHandler(RunnerHeartbeatCommand)
export class RunnerHeartbeatHandler implements ICommandHandler<RunnerHeartbeatCommand, void> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: RunnerHeartbeatCommand): Promise<void> {
    if (cmd.projects.length === 0) return;
    const events = cmd.projects.map((project) =>
      this.writer.createEvent<RunnerHeartbeat>({ type: RUNNER_HEARTBEAT, key: String(project), data: { project, runner: cmd.runner }, actor: cmd.actor }),
    );
    await this.writer.append(JOBS_TOPIC, events);
  }
}
