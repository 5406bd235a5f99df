import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, MAIN, spawnPlatform } from '../support/spawn-platform';

jest.setTimeout(120_000);

/**
 * What `npm start` prints, as a newcomer (and a log file) sees it: where the admin key is,
 * on every start, the key itself only the once it is created; and no colour codes when
 * the output is not a terminal (here: pipes, as `npm start > platform.log`).
 */
describe('platform start output', () => {
  const unique = `ps${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  /** storage and projector (which creates the admin key) on a fresh data dir; debug level, so Nest prints its route lines. */
  const start = async (dataDir: string, env: NodeJS.ProcessEnv = {}) => {
    const platform = await spawnPlatform({
      env: {
        EVENT_LOG_NAMESPACE: `${unique}-`,
        MONGODB_DATABASE: `crawlhub_${unique}`,
        DATA_DIR: dataDir,
        STORAGE_PORT: String(await freePort()),
        LOG_LEVEL: 'debug',
        CRAWLHUB_ADMIN_KEY: '',
        // Whatever the environment running the tests says: colours are the logger's own decision.
        NO_COLOR: undefined,
        ...env,
      },
      roles: 'storage,projector',
    });
    await platform.stop();
    return platform.output();
  };

  it('says where the admin key is on every start, and prints the key only when it creates it', async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-start-'));
    const keyFile = join(dataDir, 'admin-key');
    const first = await start(dataDir);
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(first).toContain(`admin key      in ${keyFile} (KEY=$(cat ${keyFile}))`);
    expect(first).toContain(`Created the admin API key (also saved in ${keyFile}):\n  ${key}\n`);

    const restart = await start(dataDir);
    expect(restart).toContain(`admin key      in ${keyFile} (KEY=$(cat ${keyFile}))`);
    expect(restart).not.toContain(key);
    expect(restart).not.toContain('Created the admin API key');

    const configured = await start(mkdtempSync(join(tmpdir(), 'crawlhub-start-')), { CRAWLHUB_ADMIN_KEY: 'start-output-admin-key-0001' });
    expect(configured).toContain('admin key      CRAWLHUB_ADMIN_KEY (from the environment)');
    expect(configured).not.toContain('start-output-admin-key-0001');
  });

  it('writes no colour codes when its output is not a terminal', async () => {
    const output = await start(mkdtempSync(join(tmpdir(), 'crawlhub-start-')));
    // Nest's own lines (route mapping at debug level) are there, plain.
    expect(output).toMatch(/^\[Nest\] \d+ +- .* +LOG \[RoutesResolver\]/m);
    expect(output).not.toContain('\x1b[');
  });
});
