import { Actor, KeyCapability } from '@crawlhub/contracts';

/** Creates an API key bound to projects (or an admin key, which sees every project). */
export class CreateAccessKeyCommand {
  constructor(
    readonly projects: number[],
    readonly admin: boolean,
    readonly label: string,
    readonly actor: Actor,
    /** Use this secret instead of generating one (the configured admin key). */
    readonly secret?: string,
    readonly capabilities: KeyCapability[] = [],
  ) {}
}
