import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ACCESS_KEY_CAPABILITIES_SET, ACCESS_KEYS_TOPIC, AccessKeyCapabilitiesSet, KeyCapability } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { ACCESS_KEYS_VIEW, AccessKeysView } from '../../ports/access-keys.view';
import { SetKeyCapabilitiesCommand } from './set-key-capabilities.command';

export class UnknownKeyError extends Error {}

/** Appends the key's whole new set of capabilities; answers it. */
@CommandHandler(SetKeyCapabilitiesCommand)
export class SetKeyCapabilitiesHandler implements ICommandHandler<SetKeyCapabilitiesCommand, KeyCapability[]> {
  constructor(
    private readonly writer: EventWriter,
    @Inject(ACCESS_KEYS_VIEW) private readonly keys: AccessKeysView,
  ) {}

  async execute(cmd: SetKeyCapabilitiesCommand): Promise<KeyCapability[]> {
    const key = (await this.keys.list()).find((k) => k.keyId === cmd.keyId);
    if (!key) throw new UnknownKeyError(`no key ${cmd.keyId} (see keys list)`);
    const capabilities = [...new Set([...key.capabilities, ...cmd.grant])].filter((c) => !cmd.withdraw.includes(c)).sort();
    const data: AccessKeyCapabilitiesSet = { keyId: key.keyId, capabilities };
    await this.writer.appendAndWait(ACCESS_KEYS_TOPIC, [this.writer.createEvent({ type: ACCESS_KEY_CAPABILITIES_SET, key: key.keyId, data, actor: cmd.actor })]);
    return capabilities;
  }
}
