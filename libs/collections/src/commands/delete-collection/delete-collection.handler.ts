import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { COLLECTION_DELETED, CollectionDeleted, COLLECTIONS_TOPIC } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { DeleteCollectionCommand } from './delete-collection.command';

@CommandHandler(DeleteCollectionCommand)
export class DeleteCollectionHandler implements ICommandHandler<DeleteCollectionCommand, void> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: DeleteCollectionCommand): Promise<void> {
    const data: CollectionDeleted = { project: cmd.project, name: cmd.name };
    await this.writer.appendAndWait(COLLECTIONS_TOPIC, [this.writer.createEvent({ type: COLLECTION_DELETED, key: String(cmd.project), data, actor: cmd.actor })]);
  }
}
