import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ACCESS_KEY_CREATED, ACCESS_KEYS_TOPIC, AccessKeyCreated } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { digestOf, generateSecret, keyIdOf } from '../../domain/access-key';
import { CreateAccessKeyCommand } from './create-access-key.command';

@CommandHandler(CreateAccessKeyCommand)
export class CreateAccessKeyHandler implements ICommandHandler<CreateAccessKeyCommand, { keyId: string; secret: string }> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: CreateAccessKeyCommand): Promise<{ keyId: string; secret: string }> {
    const secret = cmd.secret ?? generateSecret();
    const keyId = keyIdOf(secret);
    const data: AccessKeyCreated = { keyId, digest: digestOf(secret), admin: cmd.admin, projects: [...new Set(cmd.projects)].sort((a, b) => a - b), label: cmd.label, capabilities: [...new Set(cmd.capabilities)].sort() };
    await this.writer.appendAndWait(ACCESS_KEYS_TOPIC, [this.writer.createEvent({ type: ACCESS_KEY_CREATED, key: keyId, data, actor: cmd.actor })]);
    return { keyId, secret };
  }
}
