import { createServer, Server } from 'node:http';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ExtractionSite, SITE_ARTICLE, startExtractionSite } from '../../bench/extraction-site';
import { Fleet, Replica } from '../support/fleet';
import { QUOTES, startQuotesSite } from '../support/quotes-site';
import { RetryingClient } from '../support/retrying-client';
import { FIFO_PRELUDE, nodeScript } from '../support/runner-helpers';
import { describeIf, itIf, needs } from '../support/skip';

/**
 * The fleet of docker/compose.yaml, without Docker: every crawlhub service of the file
 * started as local processes (the built platform, `npm run build` first) with its APP_ROLE
 * and environment, two replicas of each stateless role, on the real Kafka broker and
 * MongoDB-protocol server npm test provisions. Clients and the processes themselves reach
 * services by their compose names, which are loopback addresses spreading connections over
 * the replicas (test/support/fleet.ts). Through them it runs each API; then, with clients
 * writing, fetching and extracting throughout, it SIGKILLs one process of each role in turn
 * (the projector alone first; then the others a few seconds apart, each started again at
 * once, so their restarts overlap), and then restarts every process with SIGTERM: the
 * projector, then two waves (the first replica of every other service, then the second), so
 * a service with two replicas always has one serving. It prints the figures
 * a reader wants: the startup time, and for each phase the requests made, how many were
 * retried (only on the documented signals, test/support/retrying-client.ts) and failed (0).
 * npm test runs it after the Kafka and MongoDB lanes (test/run-tests.sh).
 */
const PROJECT = 1;
const SCRAPY_PYTHON = process.env.SCRAPY_PYTHON ?? '';
const QUOTES_PROJECT = join(__dirname, '../../examples/spiders/scrapy-quotes');
const STATEFUL = new Set(['projector', 'runner']);
const ADMIN_KEY = `fleet-admin-${process.pid}-${Date.now()}`;
/** A job of three items. */
const QUICK_COMMAND = JSON.stringify(nodeScript(`${FIFO_PRELUDE} for (let i = 0; i < 3; i++) out('ITM', {i}); out('FIN', {outcome: 'done'});`));

const needsServers = {
  met: needs.kafka.met && needs.mongodb.met,
  reason: [needs.kafka, needs.mongodb].filter((n) => !n.met).map((n) => n.reason).join('; '),
};
/** Between two disruptions of a phase: each meets the load on its own, their restarts overlap. */
const SPACING_MS = 2000;

/** Pages for the fetch, render and proxy checks: `/page/<n>` says so in HTML, `/script/<n>` only once its script ran. */
async function startOrigin(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const [, kind, n] = /^\/(page|script)\/(\w+)$/.exec(req.url ?? '') ?? [];
    const body = kind === 'page' ? `<p id="n">page ${n}</p>` : kind === 'script' ? `<p id="n"></p><script>document.getElementById('n').textContent = 'rendered ' + ${JSON.stringify(n)};</script>` : '';
    res.writeHead(kind ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${body}</body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describeIf(needsServers)('the fleet of docker/compose.yaml, as processes on Kafka and MongoDB', () => {
  let fleet: Fleet;
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let quotes: Awaited<ReturnType<typeof startQuotesSite>>;
  let site: ExtractionSite;
  const client = new RetryingClient(ADMIN_KEY);
  const at = (service: string, path: string) => `${fleet.url(service)}${path}`;

  const api = {
    putRecord: (key: string, value: string) => client.send(at('storage', `/collections/${PROJECT}/s/fleet/${encodeURIComponent(key)}`), { method: 'POST', body: JSON.stringify({ value }) }),
    records: async () => (await client.send(at('storage', `/collections/${PROJECT}/s/fleet?meta=_key`))).body.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { _key: string; value: string }),
    enqueue: (fp: string) => client.json<{ newcount: number }>(at('storage', `/hcf/${PROJECT}/fleet/s/slot`), { method: 'POST', body: JSON.stringify({ fp }) }),
    fingerprints: async () => (await client.send(at('storage', `/hcf/${PROJECT}/fleet/s/slot/f?count=100000`))).body.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { fp: string }).fp),
    dash: (path: string, form: Record<string, string>) => client.json<Record<string, unknown>>(at('dash', `/api${path}`), { method: 'POST', body: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    /**
     * Starts the only job of `spider`, sent again on a retry signal like every other request:
     * its Idempotency-Key (unique to this test run, like its admin key) makes a copy answer the first one's job,
     * where a plain copy would be refused as "already scheduled" (docs/dash-api.md).
     */
    run: async (spider: string): Promise<string> => {
      const form = new URLSearchParams({ project: String(PROJECT), spider }).toString();
      const headers = { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': `${spider}-${ADMIN_KEY}` };
      return (await client.json<{ jobid: string }>(at('dash', '/api/run.json'), { method: 'POST', body: form, headers })).jobid;
    },
    job: async (key: string) => JSON.parse((await client.send(at('storage', `/jobs/${key}`))).body) as Record<string, unknown>,
    fetch: (url: string, render = false) => client.json<Record<string, unknown>>(at('fetch', '/fetch/v2'), { method: 'POST', body: JSON.stringify({ url, render }), headers: { 'content-type': 'application/json' } }),
    extract: (url: string) => client.json<{ article?: { headline?: string }; error?: string }[]>(at('extract', '/v1/extract'), { method: 'POST', body: JSON.stringify([{ url, pageType: 'article' }]), headers: { 'content-type': 'application/json' } }),
    proxied: (url: string) => client.send(url, { proxy: fleet.url('proxy') }),
  };

  /** Polls a job until it is finished. */
  async function finished(key: string, timeoutMs: number): Promise<Record<string, unknown>> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const meta = await api.job(key);
      if (meta.state === 'finished') return meta;
      if (Date.now() > until) throw new Error(`job ${key} still ${String(meta.state)} after ${timeoutMs} ms: ${JSON.stringify(meta)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  beforeAll(async () => {
    const started = Date.now();
    [origin, quotes, site] = await Promise.all([startOrigin(), startQuotesSite(), startExtractionSite()]);
    fleet = await Fleet.create({
      unique: `fleet${process.pid}${Date.now().toString(36)}`,
      kafkaBrokers: process.env.KAFKA_BROKERS!,
      mongodbUri: process.env.MONGODB_URI!,
      adminKey: ADMIN_KEY,
      replicas: (s) => (STATEFUL.has(s.name) ? 1 : 2),
      env: {
        // The test's websites are on loopback; no throttling between requests to them.
        ALLOW_PRIVATE_TARGETS: 'true',
        PROXY_THROTTLE_SPACING_MS: '0',
        LOG_LEVEL: 'warn',
        EVENT_LOG_PARTITIONS: '2',
        RENDER_CONCURRENCY: '1',
        // A killed worker's requests move after Kafka's 10 s session timeout: room for that.
        FETCH_DEADLINE_MS: '60000',
        EXTRACT_QUERY_TIMEOUT_MS: '60000',
        RUNNER_POLL_MS: '200',
        RUNNER_HEARTBEAT_MS: '1000',
        RUNNER_LOST_MS: '5000',
        RUNNER_STOP_GRACE_MS: '3000',
        // Out of the service addresses' rotation (they probe /readyz every 250 ms) before a stop.
        SHUTDOWN_DRAIN_MS: '1500',
        ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
      },
    });
    // The projector first (it creates the topics the others read), then everything at once.
    const replicas = fleet.services.flatMap((s) => s.replicas);
    const projector = fleet.service('projector').replicas;
    await Promise.all(projector.map((r) => fleet.start(r)));
    await Promise.all(replicas.filter((r) => !projector.includes(r)).map((r) => fleet.start(r)));
    console.log(`fleet: ${replicas.length} processes of ${fleet.services.length} services up (every /readyz 200) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await api.dash('/spiders/register.json', { project: String(PROJECT), spider: 'quick', command: QUICK_COMMAND });
  }, 600_000);

  afterAll(async () => {
    await fleet?.stop();
    await Promise.all([origin?.close(), quotes?.close(), site?.close()]);
  }, 120_000);

  it('serves storage, collections, frontier, jobs, proxy, stats, fetch and extraction through the service names', async () => {
    expect((await api.putRecord('first', 'one')).status).toBe(200);
    expect((await client.send(at('storage', `/collections/${PROJECT}/s/fleet/first/value`))).body).toBe('one');
    expect(await api.enqueue('/first')).toEqual({ newcount: 1 });
    expect((await client.send(at('storage', `/hcf/${PROJECT}/fleet/s/slot/q`))).body).toContain('"/first"');
    const quick = (await api.dash('/run.json', { project: String(PROJECT), spider: 'quick' })).jobid as string;
    expect(await finished(quick, 60_000)).toMatchObject({ state: 'finished', close_reason: 'done' });
    expect((await client.send(at('storage', `/items/${quick}`))).body.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
    const proxied = await api.proxied(`${origin.url}/page/proxied`);
    expect([proxied.status, proxied.body]).toEqual([200, expect.stringContaining('page proxied')]);
    expect((await client.send(at('stats', '/stats'))).status).toBe(200);
    expect(await api.fetch(`${origin.url}/page/fetched`)).toMatchObject({ proxy_status: 'success', original_status: 200, body: expect.stringContaining('page fetched') });
    const [article] = await api.extract(`${site.url}/article`);
    expect(article.article?.headline).toBe(SITE_ARTICLE.headline);
  }, 120_000);

  itIf(needs.chromium)('renders a page on a render worker through the fetch service', async () => {
    expect(await api.fetch(`${origin.url}/script/browser`, true)).toMatchObject({ proxy_status: 'success', body: expect.stringContaining('rendered browser') });
  }, 90_000);

  itIf(needs.scrapy)('runs a real Scrapy job on the runner: its items in storage', async () => {
    const startCrawl = join(dirname(SCRAPY_PYTHON), 'start-crawl');
    expect(existsSync(startCrawl)).toBe(true);
    await api.dash('/spiders/register.json', { project: String(PROJECT), spider: 'quotes', command: JSON.stringify([startCrawl]), cwd: QUOTES_PROJECT });
    const key = (await api.dash('/run.json', { project: String(PROJECT), spider: 'quotes', start_url: `${quotes.url}/` })).jobid as string;
    expect(await finished(key, 90_000)).toMatchObject({ state: 'finished', close_reason: 'finished' });
    const items = (await client.send(at('storage', `/items/${key}`))).body.trim().split('\n').map((l) => JSON.parse(l) as { text: string });
    expect(items.map((i) => i.text).sort()).toEqual(Object.values(QUOTES).flat().map((q) => q.text).sort());
  }, 120_000);

  /**
   * Clients that write records, enqueue requests, start jobs, fetch, render, extract and
   * proxy, each in a loop, until stopped; what was acknowledged is remembered.
   */
  function startLoad() {
    const acknowledged = { records: new Map<string, string>(), fingerprints: new Set<string>(), jobs: [] as string[] };
    const answered = { fetches: 0, renders: 0, extractions: 0, proxied: 0 };
    const failures: string[] = [];
    let running = true;
    let n = 0;
    // Each client pauses between its requests: load that goes on throughout, not a benchmark.
    const loop = (name: string, body: (i: number) => Promise<void>, pauseMs = 100) =>
      (async () => {
        while (running) {
          const i = n++;
          await body(i).catch((e: Error) => failures.push(`${name} ${i}: ${e.message}`));
          if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
        }
      })();
    const loops = [
      loop('record', async (i) => {
        const answer = await api.putRecord(`k${i}`, `v${i}`);
        if (answer.status !== 200) throw new Error(`${answer.status} ${answer.body}`);
        acknowledged.records.set(`k${i}`, `v${i}`);
      }),
      loop('frontier', async (i) => {
        await api.enqueue(`/fp/${i}`);
        acknowledged.fingerprints.add(`/fp/${i}`);
      }),
      // A spider of its own per job: a spider with a job still pending is refused ("already scheduled").
      loop('job', async (i) => {
        await api.dash('/spiders/register.json', { project: String(PROJECT), spider: `quick-${i}`, command: QUICK_COMMAND });
        acknowledged.jobs.push(await api.run(`quick-${i}`));
      }, 1000),
      ...[0, 1].map(() =>
        loop('fetch', async (i) => {
          const answer = await api.fetch(`${origin.url}/page/${i}`);
          if (answer.proxy_status !== 'success' || !String(answer.body).includes(`page ${i}`)) throw new Error(JSON.stringify(answer).slice(0, 300));
          answered.fetches++;
        }),
      ),
      ...(needs.chromium.met
        ? [
            loop('render', async (i) => {
              const answer = await api.fetch(`${origin.url}/script/${i}`, true);
              if (answer.proxy_status !== 'success' || !String(answer.body).includes(`rendered ${i}`)) throw new Error(JSON.stringify(answer).slice(0, 300));
              answered.renders++;
            }),
          ]
        : []),
      loop('extract', async (i) => {
        const [answer] = await api.extract(`${site.url}/article?n=${i}`);
        if (answer.article?.headline !== SITE_ARTICLE.headline) throw new Error(JSON.stringify(answer).slice(0, 300));
        answered.extractions++;
      }),
      loop('proxy', async (i) => {
        const answer = await api.proxied(`${origin.url}/page/p${i}`);
        if (answer.status !== 200 || !answer.body.includes(`page p${i}`)) throw new Error(`${answer.status} ${JSON.stringify(answer.headers)} ${answer.body.slice(0, 200)}`);
        answered.proxied++;
      }),
    ];
    return {
      acknowledged,
      answered,
      failures,
      stop: async () => {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  /** Everything acknowledged is there, every job started finishes. */
  async function expectNothingLost(load: ReturnType<typeof startLoad>): Promise<void> {
    const records = new Map((await api.records()).map((r) => [r._key, r.value]));
    expect([...load.acknowledged.records].filter(([k, v]) => records.get(k) !== v)).toEqual([]);
    const fingerprints = new Set(await api.fingerprints());
    expect([...load.acknowledged.fingerprints].filter((fp) => !fingerprints.has(fp))).toEqual([]);
    // `finished` throws for a job that stays pending or running.
    await Promise.all(load.acknowledged.jobs.map((key) => finished(key, 60_000)));
  }

  /** Runs `disrupt` with the load on; returns what the load saw. */
  async function underLoad(disrupt: () => Promise<void>) {
    const retriesBefore = { ...client.retries };
    const requestsBefore = client.requests;
    const failoversBefore = fleet.failovers();
    const load = startLoad();
    const started = Date.now();
    try {
      await disrupt();
      // The last one restarted: give the load time to go through it.
      await new Promise((r) => setTimeout(r, 3000));
    } finally {
      await load.stop();
    }
    const retries = { connection: client.retries.connection - retriesBefore.connection, 'retry-after': client.retries['retry-after'] - retriesBefore['retry-after'] };
    const figures = {
      seconds: Math.round((Date.now() - started) / 1000),
      requests: client.requests - requestsBefore,
      retried: retries.connection + retries['retry-after'],
      failed: load.failures.length,
      records: load.acknowledged.records.size,
      fingerprints: load.acknowledged.fingerprints.size,
      jobs: load.acknowledged.jobs.length,
      ...load.answered,
      retries,
      failovers: fleet.failovers() - failoversBefore,
    };
    return { load, figures };
  }

  const name = (r: Replica) => `${r.service.name}-${r.index}`;
  const report = (phase: string, figures: Awaited<ReturnType<typeof underLoad>>['figures'], log: string[]) =>
    console.log(
      `fleet, ${phase}: ${figures.seconds} s, ${figures.requests} requests, ${figures.retried} retried (${figures.retries.connection} connection, ${figures.retries['retry-after']} 503 with Retry-After), ${figures.failed} failed\n` +
        `  ${JSON.stringify(figures)}\n  ${log.join('\n  ')}${client.retryLog.length ? `\n  last retries:\n  ${client.retryLog.slice(-20).join('\n  ')}` : ''}`,
    );

  /**
   * The projector restarts alone: while it is down every write waits for the views, and its
   * restart (catching up, joining its consumer groups) slowed by ten others on two cores kept
   * writes waiting past the clients' patience.
   */
  const projector = () => fleet.service('projector').replicas;
  const others = () => fleet.services.filter((s) => s.name !== 'projector');

  /**
   * Stops each replica with `signal` in turn, SPACING_MS apart, each started again at once
   * (their restarts overlap); resolves when all are ready again.
   */
  async function inTurn(replicas: Replica[], signal: NodeJS.Signals, log: string[]): Promise<void> {
    const restarts: Promise<void>[] = [];
    for (const r of replicas) {
      const t = Date.now();
      restarts.push(fleet.restart(r, signal).then(() => void log.push(`${signal} ${name(r)}: ready again after ${((Date.now() - t) / 1000).toFixed(1)} s`)));
      await new Promise((resolve) => setTimeout(resolve, SPACING_MS));
    }
    await Promise.all(restarts);
  }

  it('loses nothing acknowledged and answers every request while one process of each role is SIGKILLed in turn and started again', async () => {
    const log: string[] = [];
    client.retryLog.length = 0;
    const { load, figures } = await underLoad(async () => {
      await inTurn(projector(), 'SIGKILL', log);
      await inTurn(others().map((s) => s.replicas[0]), 'SIGKILL', log);
    });
    report('SIGKILL of one process of each role under load', figures, log);
    expect(load.failures).toEqual([]);
    expect(figures.fetches).toBeGreaterThan(0);
    expect(figures.extractions).toBeGreaterThan(0);
    await expectNothingLost(load);
  }, 600_000);

  it('answers every request without a failure (503 with Retry-After aside) through a rolling restart of every process', async () => {
    const log: string[] = [];
    client.retryLog.length = 0;
    const { load, figures } = await underLoad(async () => {
      await inTurn(projector(), 'SIGTERM', log);
      // One replica of every other service at a time: a service of two always has one serving.
      for (const wave of [0, 1]) await inTurn(others().flatMap((s) => s.replicas.filter((r) => r.index === wave)), 'SIGTERM', log);
    });
    report('rolling restart (SIGTERM) of every process under load', figures, log);
    expect(load.failures).toEqual([]);
    expect(figures.retries.connection).toBe(0);
    await expectNothingLost(load);
  }, 600_000);
});
