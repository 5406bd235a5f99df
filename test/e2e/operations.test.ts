import { INestApplication } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import { AddressInfo, connect, createServer as createNetServer, Socket } from 'node:net';
import { registeredRoutes, startOpsServer } from '@crawlhub/platform';
import { startFetchApp } from '../../apps/fetch/fetch.app';
import { startExtractApp } from '../../apps/extract/extract.app';
import { startStatsApp } from '../../apps/proxy/stats.app';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { viaProxy } from '../support/proxy-client';
import { hasSeries, sample, scrape } from '../support/metrics';

/**
 * Operating a process (docs/operations.md): every port of every role answers /healthz and
 * /readyz without a key, /metrics (Prometheus text) with the admin key or on OPS_PORT, and
 * the numbers move with the traffic. Runs on every lane (the lanes' EVENT_LOG and VIEW_STORE).
 */
describe('health, readiness and metrics on every port', () => {
  // Each readiness read and scrape asks the log for the end offsets of every projected topic: on Kafka, round trips to the broker.
  jest.setTimeout(30_000);
  let platform: TestPlatform;
  const apps: INestApplication[] = [];
  let proxy: StartedProxy;
  let ops: Awaited<ReturnType<typeof startOpsServer>>;
  let site: Server;
  let siteUrl: string;
  const ports: Record<string, string> = {};

  beforeAll(async () => {
    // A website that bans (503) every request to /ban, for the proxy's ban and retry counters.
    site = createServer((req, res) => res.writeHead(req.url?.startsWith('/ban') ? 503 : 200, { 'content-type': 'text/plain' }).end('hello'));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    platform = await startTestPlatform(
      // No fetch worker runs here: a fetch waits until its deadline (FETCH_DEADLINE_MS) and answers 503.
      { FETCH_PORT: '0', EXTRACT_PORT: '0', STATS_PORT: '0', PROXY_PORT: '0', OPS_PORT: '0', ALLOW_PRIVATE_TARGETS: 'true', PROXY_THROTTLE_SPACING_MS: '0', PROXY_BAN_RETRY_BACKOFF_MS: '10', FETCH_DEADLINE_MS: '3000' },
      { runner: { id: 'ops-runner', units: 3 } },
    );
    const url = (app: INestApplication) => `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    for (const [name, start] of [['fetch', startFetchApp], ['extract', startExtractApp], ['stats', startStatsApp]] as const) {
      const app = await start(platform.core, ['error']);
      apps.push(app);
      ports[name] = url(app);
    }
    proxy = await startProxyApp(platform.core, ['error']);
    ops = await startOpsServer(platform.core);
    ports.storage = platform.storageUrl;
    ports.dash = platform.dashUrl.replace(/\/api$/, '');
    ports.proxy = `http://127.0.0.1:${proxy.port}`;
    ports.ops = `http://127.0.0.1:${ops.port}`;
  }, 120_000);

  afterAll(async () => {
    await ops?.close();
    await proxy?.close();
    for (const app of apps) await app.close();
    await platform?.stop();
    await new Promise<void>((r) => site.close(() => r()));
  });

  it('answers /healthz and /readyz on every port without a key, with a status word only', async () => {
    for (const [name, base] of Object.entries(ports)) {
      const health = await fetch(`${base}/healthz`);
      expect({ name, status: health.status, body: await health.text() }).toEqual({ name, status: 200, body: 'ok\n' });
      const ready = await fetch(`${base}/readyz`);
      expect({ name, status: ready.status, body: await ready.text() }).toEqual({ name, status: 200, body: 'ready\n' });
    }
  });

  it('keeps /metrics behind the admin key on the API and proxy ports, and open on OPS_PORT', async () => {
    const user = await platform.createKey([1]);
    for (const name of ['storage', 'dash', 'fetch', 'extract', 'stats', 'proxy']) {
      expect({ name, status: (await fetch(`${ports[name]}/metrics`)).status }).toEqual({ name, status: 401 });
      expect({ name, status: (await fetch(`${ports[name]}/metrics`, { headers: { Authorization: basic(user) } })).status }).toEqual({ name, status: 401 });
      const res = await fetch(`${ports[name]}/metrics`, { headers: { Authorization: basic(platform.adminKey) } });
      expect({ name, status: res.status, type: res.headers.get('content-type') }).toEqual({ name, status: 200, type: 'text/plain; version=0.0.4; charset=utf-8' });
      expect(await res.text()).toContain('# TYPE crawlhub_http_requests_total counter');
    }
    expect((await fetch(`${ports.ops}/metrics`)).status).toBe(200);
  });

  it('counts requests per route and status, times appends, and shows the views\' lag and the consumers\' lag', async () => {
    const auth = { Authorization: basic(platform.adminKey) };
    const route = { api: 'storage', method: 'POST', route: '/:kind/:project/:spider/:job', status: '200' };
    const before = await scrape(ports.ops);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${platform.storageUrl}/items/7/1/${i + 1}`, { method: 'POST', headers: auth, body: '{"a":1}\n{"b":2}\n' });
      expect(res.status).toBe(200);
    }
    expect((await fetch(`${platform.storageUrl}/items/7/1/1`, { method: 'POST', headers: auth, body: '{bad json' })).status).toBe(400);
    const after = await scrape(ports.ops);
    expect(sample(after, 'crawlhub_http_requests_total', route) - sample(before, 'crawlhub_http_requests_total', route)).toBe(3);
    expect(sample(after, 'crawlhub_http_requests_total', { ...route, status: '400' }) - sample(before, 'crawlhub_http_requests_total', { ...route, status: '400' })).toBe(1);
    expect(sample(after, 'crawlhub_http_request_duration_seconds_count', route) - sample(before, 'crawlhub_http_request_duration_seconds_count', route)).toBe(3);
    const appends = { topic: 'job-data', outcome: 'ok' };
    expect(sample(after, 'crawlhub_eventlog_append_duration_seconds_count', appends) - sample(before, 'crawlhub_eventlog_append_duration_seconds_count', appends)).toBeGreaterThanOrEqual(3);
    // The writes answered after their views applied them: nothing left behind in job-data.
    expect(hasSeries(after, 'crawlhub_projector_lag_events', { topic: 'job-data' })).toBe(true);
    expect(sample(after, 'crawlhub_projector_lag_events', { topic: 'job-data' })).toBe(0);
    // The projector's consumer group, per partition it handled.
    expect(hasSeries(after, 'crawlhub_consumer_lag_events', { group: 'projector', topic: 'job-data' })).toBe(true);
    // A route nobody has: counted as unmatched, never as a new series per path.
    await fetch(`${platform.storageUrl}/no/such/route/with/many/segments/${Date.now()}`, { headers: auth });
    expect(sample(await scrape(ports.ops), 'crawlhub_http_requests_total', { api: 'storage', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
  });

  it('shows the fetch requests an API process waits for', async () => {
    const waiting = fetch(`${ports.fetch}/fetch/v2`, { method: 'POST', headers: { Authorization: basic(platform.adminKey), 'content-type': 'application/json' }, body: JSON.stringify({ url: `${siteUrl}/fine` }) });
    await new Promise((r) => setTimeout(r, 1000));
    expect(sample(await scrape(ports.ops), 'crawlhub_fetch_api_requests_in_flight')).toBe(1);
    // No worker answered: 503 with Retry-After, the signal a client retries.
    expect([(await waiting).status, (await waiting).headers.get('retry-after')]).toEqual([503, '5']);
    expect(sample(await scrape(ports.ops), 'crawlhub_fetch_api_requests_in_flight')).toBe(0);
  });

  it('shows jobs by state and the runner\'s slots', async () => {
    const before = await scrape(ports.ops);
    const form = new URLSearchParams({ project: '8', spider: 'ops-spider' });
    const res = await fetch(`${platform.dashUrl}/run.json`, { method: 'POST', body: form, headers: { Authorization: basic(platform.adminKey) } });
    expect(res.status).toBe(200);
    const after = await scrape(ports.ops);
    expect(sample(after, 'crawlhub_jobs', { state: 'pending' }) - sample(before, 'crawlhub_jobs', { state: 'pending' })).toBe(1);
    expect(sample(after, 'crawlhub_runner_units', { runner: 'ops-runner', state: 'busy' }) + sample(after, 'crawlhub_runner_units', { runner: 'ops-runner', state: 'free' })).toBe(3);
  });

  it('counts proxy requests per outcome and exit, bans, retries and errors per code', async () => {
    const key = await platform.createKey([1]);
    const before = await scrape(ports.ops);
    expect((await viaProxy(proxy.port, `${siteUrl}/fine`, { key })).status).toBe(200);
    const banned = await viaProxy(proxy.port, `${siteUrl}/ban`, { key, headers: { 'X-Proxy-Max-Retries': '1' } });
    expect(banned.status).toBe(503);
    expect(banned.headers['x-proxy-error']).toBe('banned');
    const after = await scrape(ports.ops);
    const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(moved('crawlhub_proxy_requests_total', { outcome: 'clean' })).toBe(1);
    expect(moved('crawlhub_proxy_requests_total', { outcome: 'ban' })).toBe(1);
    expect(moved('crawlhub_proxy_bans_total', {})).toBe(2);
    expect(moved('crawlhub_proxy_retries_total', { reason: 'ban' })).toBe(1);
    expect(moved('crawlhub_proxy_errors_total', { code: 'banned' })).toBe(1);
    expect(hasSeries(after, 'crawlhub_proxy_requests_total', { outcome: 'clean', exit: 'direct' })).toBe(true);
  });
});

describe('readiness while a store is unreachable', () => {
  /**
   * Cuts the store off as an outage would: an embedded SQLite file or a Kafka client is
   * closed under the process; a MongoDB server is reached through a TCP relay of the test,
   * whose connections are cut and refused from then on.
   */
  it.each(['event log', 'view store'] as const)('answers /readyz 503 (and /healthz 200) while the %s cannot be reached', async (store) => {
    const relay = process.env.VIEW_STORE === 'mongodb' && store === 'view store' ? await startRelay(process.env.MONGODB_URI!) : null;
    const platform = await startTestPlatform({ READY_TIMEOUT_MS: '1000', ...(relay ? { MONGODB_URI: relay.uri } : {}) });
    try {
      expect((await fetch(`${platform.storageUrl}/readyz`)).status).toBe(200);
      // Past the readiness cache (one second), then the outage.
      await new Promise((r) => setTimeout(r, 1100));
      if (store === 'event log') await platform.core.eventLog.close();
      else if (relay) relay.cut();
      else if (platform.core.views.kind === 'sqlite') await platform.core.views.db.close();
      const started = Date.now();
      const ready = await fetch(`${platform.storageUrl}/readyz`);
      const body = await ready.text();
      expect({ status: ready.status, body }).toEqual({ status: 503, body: expect.stringMatching(/^not ready: /) });
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(Date.now() - started).toBeLessThan(5000);
      expect((await fetch(`${platform.storageUrl}/healthz`)).status).toBe(200);
    } finally {
      // Its stop meets the store it cannot reach: what closes, closes.
      await platform.stop().catch(() => undefined);
      relay?.close();
    }
  }, 60_000);
});

/** A TCP relay to the host of a mongodb:// URI; `cut` ends every connection and refuses new ones. */
async function startRelay(uri: string): Promise<{ uri: string; cut(): void; close(): void }> {
  const target = new URL(uri);
  const sockets = new Set<Socket>();
  let open = true;
  const server = createNetServer((client) => {
    if (!open) return void client.destroy();
    const upstream = connect(Number(target.port || 27017), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined).once('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const relayed = new URL(uri);
  relayed.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    uri: relayed.toString(),
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    close: () => server.close(),
  };
}
