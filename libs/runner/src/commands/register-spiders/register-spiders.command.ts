import { Actor, SpiderCommandSpec } from '@crawlhub/contracts';

/** Registers (or replaces) spiders of a project with the commands that run them. */
export class RegisterSpidersCommand {
  constructor(readonly project: number, readonly spiders: SpiderCommandSpec[], readonly actor: Actor) {}
}
