import { Actor } from '@crawlhub/contracts';

/** Revokes a key: its requests, sessions and proxy tokens stop working within the access cache time. */
export class RevokeAccessKeyCommand {
  constructor(
    readonly keyId: string,
    readonly actor: Actor,
  ) {}
}
