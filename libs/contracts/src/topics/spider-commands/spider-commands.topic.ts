import { z } from 'zod';
import { defineTopic, PROJECT_ID } from '../../topic-contract';

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
const SPIDER_COMMAND_SPEC = z.object({
  spider: z.string().min(1),
  /** argv: the program, then its arguments; the runner appends the job's spider arguments. */
  command: z.array(z.string()).min(1),
  /** An absolute directory; null: a fresh empty directory per job. */
  cwd: z.string().nullable(),
  env: z.record(z.string(), z.string()),
});
export type SpiderCommandSpec = z.infer<typeof SPIDER_COMMAND_SPEC>;

export const SPIDER_COMMANDS_REGISTERED = 'spider-commands.registered';
const SPIDER_COMMANDS_REGISTERED_DATA = z.object({ project: PROJECT_ID, spiders: z.array(SPIDER_COMMAND_SPEC) });
export type SpiderCommandsRegistered = z.infer<typeof SPIDER_COMMANDS_REGISTERED_DATA>;

export const SPIDER_COMMANDS_UNREGISTERED = 'spider-commands.unregistered';
const SPIDER_COMMANDS_UNREGISTERED_DATA = z.object({ project: PROJECT_ID, spiders: z.array(z.string()) });
export type SpiderCommandsUnregistered = z.infer<typeof SPIDER_COMMANDS_UNREGISTERED_DATA>;

export const SPIDER_COMMANDS_CONTRACT = defineTopic(
  [SPIDER_COMMANDS_TOPIC],
  { [SPIDER_COMMANDS_REGISTERED]: SPIDER_COMMANDS_REGISTERED_DATA, [SPIDER_COMMANDS_UNREGISTERED]: SPIDER_COMMANDS_UNREGISTERED_DATA },
  (_type, d) => String(d.project),
);
