/**
 * Topic `spider-commands`: the spiders a project can run on crawlhub's runners, each
 * with the command that runs it. Key: the project id, so one project's registrations
 * are ordered in one partition (the last one wins).
 *
 * `spider-commands.registered` registers (or replaces) one or more spiders at once: a
 * file of registrations is one event, applied whole or not at all.
 * `spider-commands.unregistered` removes spiders; their jobs then wait for a command.
 */
export const SPIDER_COMMANDS_TOPIC = 'spider-commands';

/** How a runner starts a spider: argv (no shell), working directory, extra environment. */
export interface SpiderCommandSpec {
  spider: string;
  /** argv: the program, then its arguments; the runner appends the job's spider arguments. */
  command: string[];
  /** An absolute directory; null: a fresh empty directory per job. */
  cwd: string | null;
  env: Record<string, string>;
}

export const SPIDER_COMMANDS_REGISTERED = 'spider-commands.registered';
export interface SpiderCommandsRegistered {
  project: number;
  spiders: SpiderCommandSpec[];
}

export const SPIDER_COMMANDS_UNREGISTERED = 'spider-commands.unregistered';
export interface SpiderCommandsUnregistered {
  project: number;
  spiders: string[];
}
