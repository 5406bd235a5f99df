import { existsSync } from 'node:fs';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { startLoopbackSite, LoopbackSite } from '../support/loopback-site';
import { client, FIFO_PRELUDE, NODE_CRAWLER, nodeScript } from '../support/runner-helpers';

jest.setTimeout(90_000);

/** The runner end to end: run.json → a real process → data, state and activity through the public APIs. */
describe('runner: running jobs', () => {
  let p: TestPlatform;
  let site: LoopbackSite;
  let c: ReturnType<typeof client>;

  beforeAll(async () => {
    site = await startLoopbackSite({ pages: 5, slowMs: 150 });
    p = await startTestPlatform({ RUNNER_POLL_MS: '100', RUNNER_STOP_GRACE_MS: '800' }, { runner: { id: 'runner-e2e', units: 4 } });
    c = client(p, p.adminKey);
  });
  afterAll(async () => {
    await p?.stop();
    await site?.close();
  });

  it('runs the example Node spider from run.json to a finished job with its items, requests, logs and stats', async () => {
    await c.register(1, 'node-crawler', [process.execPath, NODE_CRAWLER]);
    const key = await c.run(1, 'node-crawler', { start_url: `${site.url}/`, max_pages: '20' });
    const meta = await c.waitFor(key);
    expect(meta).toMatchObject({ state: 'finished', close_reason: 'finished', started_by: 'jobrunner', completed_by: 'jobrunner', _runner: 'runner-e2e' });
    expect((meta.scrapystats as Record<string, unknown>).item_scraped_count).toBe(6);
    expect((meta.scrapystats as Record<string, unknown>)['downloader/response_status_count/404']).toBe(1);

    const items = await c.lines(`/items/${key}`);
    expect(items.map((i) => i.url).sort()).toEqual([`${site.url}/`, ...[1, 2, 3, 4, 5].map((n) => `${site.url}/page/${n}`)].sort());
    expect(items[0]).toMatchObject({ _type: 'Page', url: `${site.url}/`, status: 200, title: 'Home', links: 7 });
    // The off-site link (another port) was not followed.
    expect(site.hits.filter((h) => h === '/elsewhere')).toEqual([]);

    const requests = await c.lines(`/requests/${key}?meta=_key`);
    expect(requests).toHaveLength(7);
    expect(requests[0]).toMatchObject({ _key: `${key}/0`, url: `${site.url}/`, status: 200, method: 'GET' });
    expect(requests[0].parent).toBeUndefined();
    expect(requests[1].parent).toBe(0);
    expect(requests.find((r) => r.status === 404)).toMatchObject({ url: `${site.url}/missing` });

    const logs = await c.lines(`/logs/${key}`);
    const messages = logs.map((l) => l.message as string);
    expect(messages[0]).toMatch(/^\[crawlhub runner\] runner runner-e2e starts job /);
    expect(messages).toContain(`Spider opened: crawling ${site.url}/ (at most 20 pages on ${site.url.slice(7)})`);
    expect(messages.some((m) => m.startsWith('Spider closed (finished): 6 items from 7 pages'))).toBe(true);
    expect(messages[messages.length - 1]).toBe("[crawlhub runner] the job's process exited with code 0");
    expect(logs.every((l) => typeof l.time === 'number' && typeof l.level === 'number')).toBe(true);
    const stats = (await (await fetch(`${p.storageUrl}/logs/${key}/stats`, { headers: { authorization: `Basic ${Buffer.from(`${p.adminKey}:`).toString('base64')}` } })).json()) as {
      totals: { input_values: number };
    };
    expect(stats.totals.input_values).toBe(logs.length);

    const activity = await c.lines('/activity/1');
    const mine = activity.filter((a) => a.job === key).map((a) => [a.event, a.user]);
    expect(mine).toEqual([['job:completed', 'jobrunner'], ['job:started', 'jobrunner'], ['job:scheduled', mine[2][1]]]);
    expect(p.runner!.runningJobs).toEqual([]);
  });

  it('gives the job the SHUB_* and SCRAPY_* environment, its spider arguments, and a token that works while it runs', async () => {
    const script = `${FIFO_PRELUDE}
      const e=process.env;
      const [user,token]=Buffer.from(e.SHUB_JOBAUTH,'hex').toString().split(/:(.*)/s);
      const auth='Basic '+Buffer.from(user+':'+token).toString('base64');
      (async()=>{
        const r=await fetch(e.SHUB_STORAGE+'jobs/'+e.SHUB_JOBKEY,{method:'POST',headers:{authorization:auth},body:JSON.stringify({written_with_token:true})});
        out('ITM',{argv:process.argv.slice(1),status:r.status,user,env:Object.fromEntries(Object.entries(e).filter(([k])=>/^(SHUB_|SCRAPY_|MY_|HOME$|PATH$|CRAWLHUB|JOB_TOKEN|MONGODB)/.test(k))),cwd:process.cwd()});
        out('FIN',{outcome:'all-good'});
      })();`;
    await c.register(2, 'env-dump', nodeScript(script), { env: { MY_SETTING: 'from-registry' } });
    const key = await c.run(2, 'env-dump', { zeta: 'last', alpha: 'first one', add_tag: ['t1', 't2'], job_settings: '{"DEPTH_LIMIT": 2}', environment: '{"MY_JOB_ENV": "x"}' });
    const meta = await c.waitFor(key);
    if (meta.close_reason !== 'all-good') console.log(await c.text(`/logs/${key}`));
    expect(meta).toMatchObject({ close_reason: 'all-good', written_with_token: true });
    const [item] = await c.lines(`/items/${key}`);
    expect(item.status).toBe(200);
    expect(item.user).toBe(key);
    expect(item.argv).toEqual(['-a', 'alpha=first one', '-a', 'zeta=last']);
    const env = item.env as Record<string, string>;
    expect(env).toMatchObject({
      SHUB_JOBKEY: key,
      SHUB_JOBNAME: 'env-dump',
      SHUB_JOB_TAGS: 't1,t2',
      SHUB_STORAGE: `${p.storageUrl}/`,
      SHUB_APIURL: `${p.dashUrl}/`,
      SCRAPY_JOB: key,
      SCRAPY_SPIDER: 'env-dump',
      SCRAPY_PROJECT_ID: '2',
      MY_SETTING: 'from-registry',
    });
    expect(env.PATH).toBeTruthy();
    // Nothing else of the runner's environment (keys, secrets, URIs) reaches a job; nor does run.json's environment.
    expect(Object.keys(env).filter((k) => /^(CRAWLHUB|JOB_TOKEN|MONGODB|MY_JOB_ENV)/.test(k))).toEqual([]);
    const data = JSON.parse(env.SHUB_JOB_DATA);
    expect(data).toMatchObject({
      key,
      spider: 'env-dump',
      spider_args: { alpha: 'first one', zeta: 'last' },
      tags: ['t1', 't2'],
      settings: { DEPTH_LIMIT: 2 },
      api_url: `${p.dashUrl}/`,
      spider_type: 'manual',
      job_env: { MY_JOB_ENV: 'x' },
    });
    expect(data.auth).toBe(Buffer.from(env.SHUB_JOBAUTH, 'hex').toString().slice(key.length + 1));
    expect(JSON.parse(env.SHUB_SETTINGS)).toEqual({ job_settings: { DEPTH_LIMIT: 2 } });
    // No cwd registered: a fresh directory of its own, removed afterwards.
    expect(item.cwd).toMatch(/\/crawlhub-runner-runner-e2e\/job-2-1-1-\w+\/work$/);
    expect(existsSync(item.cwd as string)).toBe(false);
    // The token stops working once the job finished.
    const [user, token] = [key, data.auth as string];
    const late = await fetch(`${p.storageUrl}/items/${key}`, { method: 'POST', body: '{}\n', headers: { authorization: `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}` } });
    expect(late.status).toBe(401);
  });

  it('stops a running job on stop.json: SIGTERM, and the job finishes as cancelled', async () => {
    await c.register(3, 'node-crawler', [process.execPath, NODE_CRAWLER]);
    const key = await c.run(3, 'node-crawler', { start_url: `${site.url}/slow/1`, max_pages: '10000' });
    await c.waitFor(key, (m) => m.state === 'running');
    // Let it crawl a little, then stop it.
    await c.waitFor(key, () => site.hits.filter((h) => h.startsWith('/slow/')).length >= 3);
    expect((await c.dash('/jobs/stop.json', { project: '3', job: key })).body).toEqual({ status: 'ok' });
    const meta = await c.waitFor(key);
    expect(meta.close_reason).toBe('cancelled');
    const messages = (await c.lines(`/logs/${key}`)).map((l) => l.message as string);
    expect(messages).toContain('Received SIGTERM, shutting down gracefully');
    expect(messages.some((m) => m.startsWith('[crawlhub runner] stop requested: sending SIGTERM'))).toBe(true);
    expect(messages.some((m) => m.includes('after SIGTERM: sending SIGKILL'))).toBe(false);
    expect((await c.lines(`/items/${key}`)).length).toBeGreaterThanOrEqual(2);
    const activity = (await c.lines('/activity/3')).filter((a) => a.job === key).map((a) => [a.event, a.user]);
    // The cancellation is recorded once, when it was asked for (the key's id); then the runner completes the job.
    expect(activity.map(([e]) => e)).toEqual(['job:completed', 'job:cancelled', 'job:started', 'job:scheduled']);
    expect(activity[1][1]).toMatch(/^key-/);
    expect(activity[0][1]).toBe('jobrunner');
  });

  it('kills a job that ignores SIGTERM after the grace period; it finishes as cancelled', async () => {
    const script = `${FIFO_PRELUDE} process.on('SIGTERM',()=>out('LOG',{time:Date.now(),level:30,message:'ignoring SIGTERM'})); out('LOG',{time:Date.now(),level:20,message:'up'}); setInterval(()=>{},1000);`;
    await c.register(4, 'stubborn', nodeScript(script));
    const key = await c.run(4, 'stubborn');
    await c.waitFor(key, (m) => m.state === 'running');
    await c.waitFor(key, () => true); // running; give it a moment to open its FIFO
    await new Promise((r) => setTimeout(r, 300));
    const cancelled = await fetch(`${p.storageUrl}/jobq/4/cancel`, { method: 'POST', body: JSON.stringify([{ key }]), headers: { authorization: `Basic ${Buffer.from(`${p.adminKey}:`).toString('base64')}` } });
    expect(await cancelled.json()).toEqual({ count: 1 });
    const started = Date.now();
    const meta = await c.waitFor(key);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(meta.close_reason).toBe('cancelled');
    const messages = (await c.lines(`/logs/${key}`)).map((l) => l.message as string);
    expect(messages).toEqual(expect.arrayContaining(['up', 'ignoring SIGTERM', "[crawlhub runner] the job's process was killed by SIGKILL"]));
    expect(messages.some((m) => m.includes('after SIGTERM: sending SIGKILL'))).toBe(true);
  });

  it('finishes a crashing job as failed, with its stdout and stderr in the log', async () => {
    await c.register(5, 'crasher', nodeScript(`console.log('about to crash'); console.error('oh no'); process.exit(3)`));
    const key = await c.run(5, 'crasher');
    expect((await c.waitFor(key)).close_reason).toBe('failed');
    const logs = await c.lines(`/logs/${key}`);
    const byMessage = Object.fromEntries(logs.map((l) => [l.message, l.level]));
    expect(byMessage['about to crash']).toBe(20);
    expect(byMessage['oh no']).toBe(40);
    expect(byMessage["[crawlhub runner] the job's process exited with code 3"]).toBe(40);

    await c.register(5, 'thrower', nodeScript(`${FIFO_PRELUDE} out('ITM',{n:1}); out('ITM','not an object'); out('XYZ',{}); throw new Error('boom')`));
    const thrown = await c.run(5, 'thrower');
    expect((await c.waitFor(thrown)).close_reason).toBe('failed');
    expect(await c.lines(`/items/${thrown}`)).toEqual([{ n: 1 }]);
    const messages = (await c.lines(`/logs/${thrown}`)).map((l) => l.message as string);
    expect(messages.some((m) => m.startsWith('[crawlhub runner] ignored a FIFO line: ITM payload must be a JSON object'))).toBe(true);
    expect(messages.some((m) => m.startsWith('[crawlhub runner] ignored a FIFO line: unknown command "XYZ"'))).toBe(true);
    expect(messages.some((m) => m.includes('Error: boom'))).toBe(true);

    await c.register(5, 'missing', ['/nonexistent/crawlhub-spider-binary']);
    const missing = await c.run(5, 'missing');
    expect((await c.waitFor(missing)).close_reason).toBe('failed');
    const lines = (await c.lines(`/logs/${missing}`)).map((l) => l.message as string);
    expect(lines.some((m) => m.startsWith("[crawlhub runner] could not start the job's command:") && m.includes('ENOENT'))).toBe(true);
  });

  it('finishes with exit code 0 and no FIN as finished, and uses the FIN outcome over the exit code', async () => {
    await c.register(6, 'quiet', nodeScript(`${FIFO_PRELUDE} out('ITM',{a:1}); out('STA',{time:Date.now(),stats:{item_scraped_count:1}})`));
    await c.register(6, 'closer', nodeScript(`${FIFO_PRELUDE} out('FIN',{outcome:'closespider_itemcount'}); process.exit(1)`));
    const quiet = await c.run(6, 'quiet');
    const closer = await c.run(6, 'closer');
    expect(await c.waitFor(quiet)).toMatchObject({ close_reason: 'finished', scrapystats: { item_scraped_count: 1 } });
    expect((await c.waitFor(closer)).close_reason).toBe('closespider_itemcount');
  });

  it('leaves pending the jobs of spiders without a registered command', async () => {
    const key = await c.run(7, 'unregistered-spider');
    await new Promise((r) => setTimeout(r, 500));
    expect((await c.meta(key)).state).toBe('pending');
    await c.register(7, 'unregistered-spider', nodeScript(''));
    expect((await c.waitFor(key)).close_reason).toBe('finished');
  });
});
