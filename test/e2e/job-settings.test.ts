import { basic, expectReplayKeepsReads, startTestPlatform, TestPlatform } from '../support/platform';
import { client, FIFO_PRELUDE, nodeScript } from '../support/runner-helpers';

jest.setTimeout(90_000);

/** A spider that writes, as its one item, the SHUB_SETTINGS the runner gave it. */
const settingsEcho = nodeScript(`${FIFO_PRELUDE} out('ITM',{settings:JSON.parse(process.env.SHUB_SETTINGS)}); out('FIN',{outcome:'finished'});`);

/**
 * Scrapy settings of a project and of its spiders (dash settings/get.json and set.json),
 * layered under a job's job_settings as the original does: project, then spider, then the
 * job's own, key by key; what the job's metadata shows is what its process gets.
 */
describe('jobs: project and spider Scrapy settings under job_settings', () => {
  let p: TestPlatform;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    p = await startTestPlatform({ RUNNER_POLL_MS: '50' });
    c = client(p, p.adminKey);
  });
  afterAll(() => p?.stop());

  const set = (form: Record<string, string>) => c.dash('/settings/set.json', form);

  it('merges the project\'s and the spider\'s settings under the job\'s own, in its metadata and in its process', async () => {
    expect(await c.dash('/settings/get.json?project=40')).toEqual({ status: 200, body: { status: 'ok', project: 40, project_settings: {} } });
    expect(await set({ project: '40', settings: JSON.stringify({ LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1, CONCURRENT_REQUESTS: 4 }) })).toEqual({
      status: 200,
      body: { status: 'ok', project: 40, project_settings: { LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1, CONCURRENT_REQUESTS: 4 } },
    });
    await set({ project: '40', spider: 'echo', settings: JSON.stringify({ DOWNLOAD_DELAY: 2, CLOSESPIDER_ITEMCOUNT: 9 }) });
    // Only the given keys change; null removes one.
    expect(await set({ project: '40', spider: 'echo', settings: JSON.stringify({ CLOSESPIDER_ITEMCOUNT: null, ROBOTSTXT_OBEY: false }) })).toEqual({
      status: 200,
      body: { status: 'ok', project: 40, project_settings: { LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1, CONCURRENT_REQUESTS: 4 }, spider: 'echo', spider_settings: { DOWNLOAD_DELAY: 2, ROBOTSTXT_OBEY: false } },
    });
    expect((await c.dash('/settings/get.json?project=40&spider=other')).body).toMatchObject({ spider: 'other', spider_settings: {} });

    await c.register(40, 'echo', settingsEcho);
    await c.register(40, 'other', settingsEcho);
    const withOwn = await c.run(40, 'echo', { job_settings: JSON.stringify({ LOG_LEVEL: 'DEBUG' }) });
    const projectOnly = await c.run(40, 'other');
    const merged = { LOG_LEVEL: 'DEBUG', DOWNLOAD_DELAY: 2, CONCURRENT_REQUESTS: 4, ROBOTSTXT_OBEY: false };
    expect((await c.meta(withOwn)).job_settings).toEqual(merged);
    expect((await c.meta(projectOnly)).job_settings).toEqual({ LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1, CONCURRENT_REQUESTS: 4 });

    // A change after scheduling leaves scheduled jobs as they were; the next job gets it.
    await set({ project: '40', settings: JSON.stringify({ CONCURRENT_REQUESTS: null }) });
    const after = await c.run(40, 'other', { n: '2' });
    expect((await c.meta(after)).job_settings).toEqual({ LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1 });

    const runner = await p.startRunner({ id: 'settings-runner', units: 3 });
    try {
      for (const key of [withOwn, projectOnly, after]) expect(await c.waitFor(key)).toMatchObject({ close_reason: 'finished' });
    } finally {
      await p.stopRunner(runner);
    }
    // The process got what the metadata shows, as sh_scrapy reads it (SHUB_SETTINGS job_settings, the top layer).
    expect(await c.lines(`/items/${withOwn}`)).toEqual([{ settings: { job_settings: merged } }]);
    expect(await c.lines(`/items/${after}`)).toEqual([{ settings: { job_settings: { LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1 } } }]);
    const auth = { authorization: basic(p.adminKey) };
    await expectReplayKeepsReads(p, (url: string) => fetch(url, { headers: auth }), [`${p.dashUrl}/settings/get.json?project=40&spider=echo`, `${p.storageUrl}/jobs/${withOwn}`]);
  });

  it('refuses bad settings in the dash style, changing nothing, and keeps a key to its projects', async () => {
    const before = await c.dash('/settings/get.json?project=41&spider=s');
    const refusals: [Record<string, string>, string][] = [
      [{ project: '41' }, 'settings is required (a JSON object; a null value removes its setting)'],
      [{ project: '41', settings: '{"A": 1' }, 'settings must be a JSON object (malformed JSON)'],
      [{ project: '41', settings: '[1]' }, 'settings must be a JSON object'],
      [{ project: '41', settings: '{" ": 1}' }, 'settings: a setting name must not be empty'],
      [{ project: '41', spider: '-bad', settings: '{}' }, expect.stringContaining('spider') as unknown as string],
      [{ project: 'x', settings: '{}' }, 'Invalid project id: "x"'],
    ];
    for (const [form, message] of refusals) expect(await set(form)).toEqual({ status: 400, body: { status: 'error', message } });
    expect(await c.dash('/settings/get.json?project=41&spider=s')).toEqual(before);

    const other = client(p, await p.createKey([42]));
    expect((await other.dash('/settings/set.json', { project: '41', settings: '{"A": 1}' })).status).toBe(403);
    expect((await other.dash('/settings/get.json?project=41')).status).toBe(403);
    expect((await other.dash('/settings/set.json', { project: '42', settings: '{"A": 1}' })).body).toEqual({ status: 'ok', project: 42, project_settings: { A: 1 } });
  });
});
