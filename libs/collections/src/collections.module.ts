import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpSupportModule, ApiError } from '@crawlhub/http';
import { viewAdapter } from '@crawlhub/views';
import { CollectionsMongo } from './adapters/mongodb/collections.mongodb';
import { CollectionsSqlite } from './adapters/sqlite/collections.sqlite';
import { DeleteCollectionController } from './commands/delete-collection/delete-collection.controller';
import { DeleteCollectionHandler } from './commands/delete-collection/delete-collection.handler';
import { DeleteRecordsController } from './commands/delete-records/delete-records.controller';
import { DeleteMatchingRecordsHandler, DeleteRecordsHandler } from './commands/delete-records/delete-records.handler';
import { RenameCollectionController } from './commands/rename-collection/rename-collection.controller';
import { RenameCollectionHandler } from './commands/rename-collection/rename-collection.handler';
import { WriteRecordsController } from './commands/write-records/write-records.controller';
import { WriteRecordsHandler } from './commands/write-records/write-records.handler';
import { CollectionInputError } from './domain/collection-record';
import { CollectionsProjection } from './events/collections.projection';
import { COLLECTIONS_VIEW } from './ports/collections.view';
import { CountRecordsController } from './queries/count-records/count-records.controller';
import { CountRecordsHandler } from './queries/count-records/count-records.handler';
import { ListCollectionsController } from './queries/list-collections/list-collections.controller';
import { ListCollectionsHandler } from './queries/list-collections/list-collections.handler';
import { ReadRecordsController } from './queries/read-records/read-records.controller';
import { GetRecordHandler, RecordVersionsHandler, ScanRecordsHandler } from './queries/read-records/read-records.handler';
import { CollectionScanner } from './queries/scan/collection-scanner';

/** The collections view and its projection; needed by the storage API and by the projector. */
@Module({
  imports: [CqrsModule],
  providers: [viewAdapter(COLLECTIONS_VIEW, { sqlite: CollectionsSqlite, mongodb: CollectionsMongo }), CollectionsProjection],
  exports: [COLLECTIONS_VIEW],
})
export class CollectionsViewsModule {}

/** The collections part of the storage API on :8002: /collections/<p>/... */
@Module({
  imports: [CqrsModule, HttpSupportModule, CollectionsViewsModule],
  controllers: [
    ListCollectionsController, DeleteCollectionController, RenameCollectionController, CountRecordsController,
    WriteRecordsController, DeleteRecordsController, ReadRecordsController,
  ],
  providers: [
    CollectionScanner, WriteRecordsHandler, DeleteRecordsHandler, DeleteMatchingRecordsHandler, DeleteCollectionHandler, RenameCollectionHandler,
    ScanRecordsHandler, GetRecordHandler, RecordVersionsHandler, CountRecordsHandler, ListCollectionsHandler,
  ],
})
export class CollectionsApiModule {}

/**
 * How errors of the collections context read in the storage API's plain-text style (line
 * reading is `storageErrorFilter`'s; filters, formats, gzip and projection lag are the storage
 * context's: `storageErrorOf`).
 */
export function collectionsErrorOf(e: unknown): ApiError | null {
  if (e instanceof CollectionInputError) return new ApiError(e.status, e.message);
  return null;
}
