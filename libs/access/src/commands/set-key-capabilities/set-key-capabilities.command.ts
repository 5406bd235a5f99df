import { Actor, KeyCapability } from '@crawlhub/contracts';

/** Grants or withdraws capabilities of an existing key (the CLI's `keys grant` / `keys withdraw`). */
export class SetKeyCapabilitiesCommand {
  constructor(
    readonly keyId: string,
    readonly grant: KeyCapability[],
    readonly withdraw: KeyCapability[],
    readonly actor: Actor,
  ) {}
}
