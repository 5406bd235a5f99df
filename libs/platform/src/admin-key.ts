import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import { CreateAccessKeyCommand } from '@crawlhub/access';
import { CrawlhubConfig } from '@crawlhub/config';

/**
 * The admin key: CRAWLHUB_ADMIN_KEY when configured; otherwise one is created on the
 * first start, recorded in the log like any key, and kept in DATA_DIR/admin-key (0600)
 * so the operator can find it again. Returns the key and whether it was just created.
 */
/** Where the admin key created on the first start is kept. */
export function adminKeyFile(config: CrawlhubConfig): string {
  return join(config.dataDir, 'admin-key');
}

export async function ensureAdminKey(config: CrawlhubConfig, commands: CommandBus): Promise<{ key: string; created: boolean }> {
  if (config.adminKey) return { key: config.adminKey, created: false };
  const file = adminKeyFile(config);
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), created: false };
  const { secret } = await commands.execute<CreateAccessKeyCommand, { secret: string }>(
    new CreateAccessKeyCommand([], true, 'admin (created on first start)', { kind: 'system', id: 'bootstrap' }),
  );
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { key: secret, created: true };
}
