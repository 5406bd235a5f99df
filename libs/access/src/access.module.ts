import { Module } from '@nestjs/common';
import { viewAdapter } from '@crawlhub/views';
import { AccessService } from './access.service';
import { AccessKeysMongo } from './adapters/mongodb/access-keys.mongodb';
import { AccessKeysSqlite } from './adapters/sqlite/access-keys.sqlite';
import { CreateAccessKeyHandler } from './commands/create-access-key/create-access-key.handler';
import { RevokeAccessKeyHandler } from './commands/revoke-access-key/revoke-access-key.handler';
import { SetKeyCapabilitiesHandler } from './commands/set-key-capabilities/set-key-capabilities.handler';
import { AccessKeysProjection } from './events/access-keys.projection';
import { ACCESS_KEYS_VIEW } from './ports/access-keys.view';

@Module({
  providers: [viewAdapter(ACCESS_KEYS_VIEW, { sqlite: AccessKeysSqlite, mongodb: AccessKeysMongo }), AccessService, CreateAccessKeyHandler, SetKeyCapabilitiesHandler, RevokeAccessKeyHandler, AccessKeysProjection],
  exports: [AccessService, ACCESS_KEYS_VIEW],
})
export class AccessModule {}
