import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ACCESS_KEY_REVOKED, ACCESS_KEYS_TOPIC, AccessKeyRevoked } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { ACCESS_KEYS_VIEW, AccessKeysView } from '../../ports/access-keys.view';
import { UnknownKeyError } from '../set-key-capabilities/set-key-capabilities.handler';
import { RevokeAccessKeyCommand } from './revoke-access-key.command';

/** Appends the revocation of a live key (an unknown or already revoked key: UnknownKeyError, nothing written). */
@CommandHandler(RevokeAccessKeyCommand)
export class RevokeAccessKeyHandler implements ICommandHandler<RevokeAccessKeyCommand, void> {
  constructor(
    private readonly writer: EventWriter,
    @Inject(ACCESS_KEYS_VIEW) private readonly keys: AccessKeysView,
  ) {}

  async execute(cmd: RevokeAccessKeyCommand): Promise<void> {
    const key = await this.keys.findById(cmd.keyId);
    if (!key) throw new UnknownKeyError(`no key ${cmd.keyId} (see keys list)`);
    const data: AccessKeyRevoked = { keyId: key.keyId };
    await this.writer.appendAndWait(ACCESS_KEYS_TOPIC, [this.writer.createEvent({ type: ACCESS_KEY_REVOKED, key: key.keyId, data, actor: cmd.actor })]);
  }
}
