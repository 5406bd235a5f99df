import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpSupportModule, ApiError } from '@crawlhub/http';
import { ProjectionLagError, viewAdapter } from '@crawlhub/views';
import { FrontierMongo } from './adapters/mongodb/frontier.mongodb';
import { FrontierSqlite } from './adapters/sqlite/frontier.sqlite';
import { AddRequestsController } from './commands/add-requests/add-requests.controller';
import { AddRequestsHandler } from './commands/add-requests/add-requests.handler';
import { DeleteBatchesController } from './commands/delete-batches/delete-batches.controller';
import { DeleteBatchesHandler } from './commands/delete-batches/delete-batches.handler';
import { DeleteSlotController } from './commands/delete-slot/delete-slot.controller';
import { DeleteSlotHandler } from './commands/delete-slot/delete-slot.handler';
import { LeaseBatchesHandler } from './commands/lease-batches/lease-batches.handler';
import { FrontierDecider } from './decider/frontier-decider';
import { FrontierDecisions } from './decider/frontier-decisions';
import { FrontierInputError } from './domain/requests';
import { FrontierProjection } from './events/frontier.projection';
import { FRONTIER_VIEW } from './ports/frontier.view';
import { CountQueueController } from './queries/count-queue/count-queue.controller';
import { CountQueueHandler } from './queries/count-queue/count-queue.handler';
import { ListFrontiersController } from './queries/list-frontiers/list-frontiers.controller';
import { ListFrontiersHandler } from './queries/list-frontiers/list-frontiers.handler';
import { ReadFingerprintsController } from './queries/read-fingerprints/read-fingerprints.controller';
import { ReadFingerprintsHandler } from './queries/read-fingerprints/read-fingerprints.handler';
import { ReadQueueController } from './queries/read-queue/read-queue.controller';
import { ReadQueueHandler } from './queries/read-queue/read-queue.handler';

/** The frontier view, its projection and its decider: needed by the storage API and by the projector (which alone runs the decider). */
@Module({
  imports: [CqrsModule],
  providers: [viewAdapter(FRONTIER_VIEW, { sqlite: FrontierSqlite, mongodb: FrontierMongo }), FrontierProjection, FrontierDecider, FrontierDecisions],
  exports: [FRONTIER_VIEW, FrontierDecisions],
})
export class FrontierViewsModule {}

/** The crawl frontier part of the storage API: /hcf/... */
@Module({
  imports: [CqrsModule, HttpSupportModule, FrontierViewsModule],
  controllers: [
    ListFrontiersController, CountQueueController, DeleteBatchesController, ReadQueueController, ReadFingerprintsController, AddRequestsController, DeleteSlotController,
  ],
  providers: [AddRequestsHandler, DeleteBatchesHandler, DeleteSlotHandler, LeaseBatchesHandler, ReadQueueHandler, CountQueueHandler, ReadFingerprintsHandler, ListFrontiersHandler],
})
export class FrontierApiModule {}

/** How errors of the frontier context read in the storage API's plain-text style. */
export function frontierErrorOf(e: unknown): ApiError | null {
  if (e instanceof FrontierInputError) return new ApiError(e.status, e.message);
  if (e instanceof ProjectionLagError) return ApiError.unavailable(e.message);
  return null;
}
