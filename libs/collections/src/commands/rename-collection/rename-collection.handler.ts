import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { COLLECTION_RENAMED, CollectionRenamed, COLLECTIONS_TOPIC } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { CollectionInputError } from '../../domain/collection-record';
import { COLLECTIONS_VIEW, CollectionsView } from '../../ports/collections.view';
import { RenameCollectionCommand } from './rename-collection.command';

/**
 * Refused (400) when a collection named `new_name` already holds records in the view. The
 * check is made here, not when the event is applied: a write racing the rename that
 * creates `new_name` in between is overwritten key by key by the moved records.
 */
@CommandHandler(RenameCollectionCommand)
export class RenameCollectionHandler implements ICommandHandler<RenameCollectionCommand, void> {
  constructor(private readonly writer: EventWriter, @Inject(COLLECTIONS_VIEW) private readonly view: CollectionsView) {}

  async execute(cmd: RenameCollectionCommand): Promise<void> {
    if (cmd.name === cmd.newName) throw new CollectionInputError(400, 'new_name must differ from name');
    if (await this.view.exists(cmd.project, cmd.newName)) throw new CollectionInputError(400, `Collection ${JSON.stringify(cmd.newName)} already exists`);
    const data: CollectionRenamed = { project: cmd.project, name: cmd.name, newName: cmd.newName };
    await this.writer.appendAndWait(COLLECTIONS_TOPIC, [this.writer.createEvent({ type: COLLECTION_RENAMED, key: String(cmd.project), data, actor: cmd.actor })]);
  }
}
