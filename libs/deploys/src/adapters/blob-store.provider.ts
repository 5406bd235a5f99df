import { Provider } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { MongoViewDatabase } from '@crawlhub/views';
import { BLOB_STORE } from '../ports/blob-store';
import { FolderBlobStore } from './folder/blob-store.folder';
import { GridFsBlobStore } from './mongodb/blob-store.gridfs';

/**
 * The blob store of the deployment: a folder (DEPLOY_BLOB_DIR) on the embedded one,
 * GridFS in the views' MongoDB database on the distributed one, so runners on other
 * machines read the same eggs.
 */
export const blobStoreProvider: Provider = {
  provide: BLOB_STORE,
  inject: [CONFIG, { token: MongoViewDatabase, optional: true }],
  useFactory: (config: CrawlhubConfig, mongo?: MongoViewDatabase) =>
    config.viewStore.kind === 'mongodb' ? new GridFsBlobStore(mongo!.db) : new FolderBlobStore(config.deploys.blobDir),
};
