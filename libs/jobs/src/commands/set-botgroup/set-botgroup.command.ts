import { z } from 'zod';
import { Actor } from '@crawlhub/contracts';
import { BOTGROUP_NAME, MAX_RUNNING_LIMIT } from '../../domain/botgroups';
import { checked } from '../shared/command-input';

/** A botgroup's name: 1 to 64 letters, digits, _ . or -. */
export const botgroupName = z.string().transform((name, ctx) => {
  if (BOTGROUP_NAME.test(name)) return name;
  ctx.addIssue({ code: 'custom', message: `Invalid botgroup name: ${JSON.stringify(name)} (1 to 64 letters, digits, _ . or -)` });
  return z.NEVER;
});

const MAX_RUNNING = z
  .unknown()
  .refine((v) => v === null || (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_RUNNING_LIMIT), `max_running must be an integer from 1 to ${MAX_RUNNING_LIMIT}, or null (no limit)`)
  .transform((v) => v as number | null);

/** Sets a botgroup's `max_running` (null: no limit), or deletes the botgroup (`deleted`). */
export class SetBotgroupCommand {
  readonly name: string;
  readonly maxRunning: number | null;

  constructor(name: string, maxRunning: unknown, readonly deleted: boolean, readonly actor: Actor) {
    this.maxRunning = deleted ? null : checked(MAX_RUNNING, maxRunning);
    this.name = checked(botgroupName, name);
  }
}
