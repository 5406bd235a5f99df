import { ConsoleLogger, INestApplicationContext } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@crawlhub/config';
import { Core, openCore } from '@crawlhub/platform';
import { startDashApp } from '../../apps/dash/dash.app';
import { startRunner } from '../../apps/runner/runner.app';
import { startStorageApp } from '../../apps/storage/storage.app';

jest.setTimeout(60_000);

/** Keeps every line the apps log, whatever its level. */
class KeptLines extends ConsoleLogger {
  readonly lines: string[] = [];

  constructor() {
    super('test', { logLevels: ['log', 'warn', 'error', 'debug', 'verbose', 'fatal'] });
  }

  protected override printMessages(messages: unknown[], context = '', level = 'log'): void {
    for (const m of messages) this.lines.push(`${level} [${context}] ${String(m)}`);
  }
}

/**
 * Each jobs handler is provided by one module (JobsCommandsModule): the dash app imports
 * it through the job control API and through the runner checks, and a handler provided
 * by two modules is registered twice, which @nestjs/cqrs reports at every start
 * ("Command handler [...] is already registered. Overriding previously registered handler.").
 */
describe('jobs use cases: every handler registered once per app', () => {
  let core: Core;
  const apps: INestApplicationContext[] = [];

  beforeAll(async () => {
    const unique = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    core = await openCore(
      loadConfig({
        ...process.env,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'crawlhub-handlers-')),
        STORAGE_PORT: '0',
        DASH_PORT: '0',
        MONGODB_DATABASE: `crawlhub_${unique}`,
        EVENT_LOG_NAMESPACE: `${unique}-`,
        CRAWLHUB_ADMIN_KEY: '',
      }),
    );
  });

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    if (core.views.kind === 'mongodb') await core.views.db.db.dropDatabase().catch(() => undefined);
    await core.close();
  });

  it('the storage, dash and runner apps start without a handler registered twice', async () => {
    const logger = new KeptLines();
    apps.push(await startStorageApp(core, logger));
    apps.push(await startDashApp(core, logger));
    apps.push((await startRunner(core, logger, { storageUrl: 'http://127.0.0.1:9/', apiUrl: 'http://127.0.0.1:9/api/' })).context);
    // The apps did start and log (so the lines are really kept): Nest's own start-up lines.
    expect(logger.lines.some((l) => /\[InstanceLoader\]/.test(l))).toBe(true);
    expect(logger.lines.filter((l) => /already registered/.test(l))).toEqual([]);
  });
});
