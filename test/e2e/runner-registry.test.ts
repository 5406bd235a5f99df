import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { startLoopbackSite } from '../support/loopback-site';
import { client } from '../support/runner-helpers';
import { cli } from '../support/cli';

jest.setTimeout(90_000);

const EXAMPLE = join(__dirname, '../../examples/spiders/node-crawler');

describe('runner: the spider registry', () => {
  let p: TestPlatform;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    p = await startTestPlatform();
    c = client(p, p.adminKey);
  });
  afterAll(() => p?.stop());

  it('registers, lists and removes spider commands through the dash API', async () => {
    const ok = await c.dash('/spiders/register.json', { project: '30', spider: 'books', command: '["scrapy", "crawl", "books"]', cwd: '/srv/books', env: '{"API_TOKEN": "s3cret"}' });
    expect(ok).toEqual({ status: 200, body: { status: 'ok', project: 30, spider: 'books' } });
    await c.register(30, 'auto', ['node', 'auto.js']);
    const listed = await c.dash('/spiders/commands.json?project=30');
    expect(listed.body).toMatchObject({
      status: 'ok',
      project: 30,
      spiders: [
        { spider: 'auto', command: ['node', 'auto.js'], cwd: null, env: {} },
        { spider: 'books', command: ['scrapy', 'crawl', 'books'], cwd: '/srv/books', env: { API_TOKEN: 's3cret' } },
      ],
    });
    const entry = (listed.body.spiders as Record<string, unknown>[])[1];
    expect(entry.registered_by).toMatch(/^key:key-/);
    expect(typeof entry.registered_time).toBe('number');

    // A project key reads the commands (env values hidden), but cannot register: commands run on the runners' machines.
    const key = await p.createKey([30]);
    const asProject = client(p, key);
    expect((await asProject.dash('/spiders/commands.json?project=30')).body.spiders).toContainEqual(expect.objectContaining({ spider: 'books', env: { API_TOKEN: '<hidden>' } }));
    expect(await asProject.dash('/spiders/register.json', { project: '30', spider: 'x', command: '["x"]' })).toEqual({
      status: 403,
      body: { status: 'error', message: 'Only an admin key can register spider commands' },
    });
    expect((await asProject.dash('/spiders/commands.json?project=31')).status).toBe(403);
    expect((await fetch(`${p.dashUrl}/spiders/commands.json?project=30`)).status).toBe(401);

    expect(await c.dash('/spiders/unregister.json', { project: '30', spider: 'auto' })).toEqual({ status: 200, body: { status: 'ok', project: 30, spiders: ['auto'] } });
    expect(((await c.dash('/spiders/commands.json?project=30')).body.spiders as { spider: string }[]).map((s) => s.spider)).toEqual(['books']);
  });

  it.each([
    [{ project: 'x', spider: 's', command: '["a"]' }, 'Invalid project id: "x"'],
    [{ project: '30', command: '["a"]' }, 'spider is required'],
    [{ project: '30', spider: 's' }, 'command is required (a JSON array of strings)'],
    [{ project: '30', spider: 's', command: '["a"' }, 'command must be JSON (malformed JSON)'],
    [{ project: '30', spider: 's', command: '"node a.js"' }, 'spider "s": command must be a JSON array of 1 to 256 strings (argv, no shell)'],
    [{ project: '30', spider: 's', command: '["a"]', cwd: 'rel' }, 'spider "s": cwd must be an absolute directory path'],
    [{ project: '30', spider: 's', command: '["a"]', env: '{"A-B": "1"}' }, 'spider "s": env name "A-B" is not a valid variable name'],
  ])('refuses bad registrations in the dash style: %j', async (form, message) => {
    expect(await c.dash('/spiders/register.json', form as Record<string, string>)).toEqual({ status: 400, body: { status: 'error', message } });
  });
});

describe('runner: spiders registered from a file with the CLI', () => {
  it('registers the example spider from its spiders.json, and a platform started on that data dir runs it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-cli-spiders-'));
    const registered = await cli(dataDir, ['spiders', 'register', '--project', '5', '--file', join(EXAMPLE, 'spiders.json')]);
    expect(registered).toEqual({ code: 0, out: `registered node-crawler in project 5: ["node","crawler.js"] in ${EXAMPLE}\n` });
    expect((await cli(dataDir, ['spiders', 'list', '--project', '5'])).out).toBe(`node-crawler\t["node","crawler.js"]\t${EXAMPLE}\tenv: -\n`);
    const bad = await cli(dataDir, ['spiders', 'register', '--project', '5', '--file', join(dataDir, 'missing.json')]);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('missing.json');

    const site = await startLoopbackSite({ pages: 2 });
    const p = await startTestPlatform({ DATA_DIR: dataDir, RUNNER_POLL_MS: '100', EVENT_LOG: 'sqlite', VIEW_STORE: 'sqlite' }, { runner: { id: 'cli-test' } });
    try {
      const c = client(p, p.adminKey);
      const key = await c.run(5, 'node-crawler', { start_url: `${site.url}/` });
      expect(await c.waitFor(key)).toMatchObject({ close_reason: 'finished', scrapystats: { item_scraped_count: 3 } });
      expect((await c.lines(`/items/${key}`)).map((i) => i.title)).toEqual(['Home', 'Page 1', 'Page 2']);
    } finally {
      await p.stop();
      await site.close();
    }
  });
});
