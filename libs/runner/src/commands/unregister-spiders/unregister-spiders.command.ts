import { Actor } from '@crawlhub/contracts';

/** Removes spiders' commands: their pending jobs wait until a command is registered again. */
export class UnregisterSpidersCommand {
  constructor(readonly project: number, readonly spiders: string[], readonly actor: Actor) {}
}
