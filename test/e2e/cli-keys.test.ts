import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasCapability } from '@crawlhub/access';
import { startTestPlatform } from '../support/platform';
import { cli } from '../support/cli';

jest.setTimeout(90_000);

describe('cli: keys and their capabilities', () => {
  let dataDir: string;
  beforeAll(() => (dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-cli-keys-'))));

  it('creates a key with a capability, withdraws and grants it; the platform sees what the CLI set', async () => {
    const created = await cli(dataDir, ['keys', 'create', '--project', '3', '--grant', 'browser']);
    expect(created.code).toBe(0);
    const [, keyId, secret] = /^created (key-[0-9a-f]{12}) \(projects 3; browser\):\n([0-9a-f]{32})\n$/.exec(created.out) ?? [];
    expect(secret).toBeDefined();
    expect((await cli(dataDir, ['keys', 'list'])).out).toContain(`${keyId}\tprojects 3\tbrowser\t`);

    expect((await cli(dataDir, ['keys', 'withdraw', keyId, 'browser'])).out).toBe(`${keyId}: capabilities (none)\n`);
    expect((await cli(dataDir, ['keys', 'list'])).out).toContain(`${keyId}\tprojects 3\t-\t`);
    expect((await cli(dataDir, ['keys', 'grant', keyId, 'browser'])).out).toBe(`${keyId}: capabilities browser\n`);

    const platform = await startTestPlatform({ DATA_DIR: dataDir, EVENT_LOG: 'sqlite', VIEW_STORE: 'sqlite' });
    try {
      const principal = await platform.access.authenticate(secret);
      expect(principal?.id).toBe(keyId);
      expect(principal && hasCapability(principal, 'browser')).toBe(true);
    } finally {
      await platform.stop();
    }
  });

  it('refuses unknown capabilities and unknown keys with a readable error (exit 2)', async () => {
    const bad = await cli(dataDir, ['keys', 'grant', 'key-000000000000', 'teleport']);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('unknown capability "teleport": one of browser');
    const unknown = await cli(dataDir, ['keys', 'grant', 'key-000000000000', 'browser']);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain('no key key-000000000000');
  });

  it('refuses a misspelt option with a hint and the command’s usage (exit 2), and creates nothing', async () => {
    const before = (await cli(dataDir, ['keys', 'list'])).out;
    const typo = await cli(dataDir, ['keys', 'create', '--project', '3', '--lable', 'nightly']);
    expect(typo.code).toBe(2);
    expect(typo.out).toContain('crawlhub: unknown option --lable (did you mean --label?)');
    expect(typo.out).toContain('crawlhub keys create --project N');
    expect(typo.out).not.toContain('crawlhub spiders register'); // the command's usage, not the whole help
    expect((await cli(dataDir, ['keys', 'list'])).out).toBe(before);
    expect((await cli(dataDir, ['keys', 'grant', '--help'])).out).toContain('crawlhub keys grant <key-id> CAP');
  });
});

