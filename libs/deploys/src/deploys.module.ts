import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpSupportModule } from '@crawlhub/http';
import { viewAdapter } from '@crawlhub/views';
import { blobStoreProvider } from './adapters/blob-store.provider';
import { DeploysMongo } from './adapters/mongodb/deploys.mongodb';
import { DeploysSqlite } from './adapters/sqlite/deploys.sqlite';
import { DeployBuilder } from './builder/deploy-builder';
import { AddVersionController } from './commands/add-version/add-version.controller';
import { DeployProgress } from './commands/add-version/deploy-progress';
import { EnvironmentEviction } from './environments/environment-eviction';
import { environmentsProvider } from './environments/environments.provider';
import { DeploysProjection } from './events/deploys.projection';
import { DEPLOYS_VIEW } from './ports/deploys.view';
import { BuildLogController } from './queries/build-log/build-log.controller';
import { VersionsController } from './queries/versions/versions.controller';
import { DeployedJobs } from './running/deployed-jobs';

/** The deploys view and its projection: needed by the projector, the dash API and the runner. */
@Module({
  providers: [viewAdapter(DEPLOYS_VIEW, { sqlite: DeploysSqlite, mongodb: DeploysMongo }), DeploysProjection],
  exports: [DEPLOYS_VIEW],
})
export class DeploysViewsModule {}

/** Deploys on the dash API: scrapyd/addversion.json, listversions.json, delversion.json, eggs/list.json, deploys/list.json. */
@Module({
  imports: [CqrsModule, HttpSupportModule, DeploysViewsModule],
  controllers: [AddVersionController, VersionsController, BuildLogController],
  providers: [blobStoreProvider, DeployProgress],
})
export class DeploysApiModule {}

/** The runner role's part: builds deploys (group deploy-builders) and prepares the environments of deployed jobs. */
@Module({
  imports: [DeploysViewsModule],
  providers: [blobStoreProvider, environmentsProvider, EnvironmentEviction, DeployBuilder, DeployedJobs],
  exports: [DeployedJobs],
})
export class DeployRunnerModule {}
