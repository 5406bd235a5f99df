import { existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadConfig } from '@crawlhub/config';
import { BENCH_AUTH, percentile, report, startPlatform } from './bench-support';
import { freePort, Origin, processUsage, startOrigin } from './proxy-support';
import { SCRIPT_TEXT, startRenderSite } from './render-site';
import { rawGotoRate } from './render.bench';

/**
 * `npm run bench:fetch`, part "plain fetches" (issue 6): POST /fetch/v2 of a 1 KB loopback
 * page through the whole path (fetch API -> event log -> worker -> crawlhub's proxy ->
 * origin -> result event -> API), against a baseline in the same run: the same GETs sent
 * straight through the proxy. The platform runs as `npm start` does (one process, roles
 * proxy, fetch and worker, SQLite log; EVENT_LOG=kafka with KAFKA_BROKERS for the Kafka
 * lane), throttling off; this process is the client (keep-alive, BENCH_FETCH_CONCURRENCY
 * requests in flight, default 64). Baseline and fetch alternate for BENCH_FETCH_ROUNDS
 * rounds (default 2) of BENCH_FETCH_SECONDS (default 5) and each keeps its best round.
 * Printed: requests/s, p50/p99 latency, the platform's CPU per request, the ratio.
 *
 * Part "rendered fetches" (issue 20): POST /fetch/v2 with `render: true` of the render
 * site's page at 1, 2 and 4 in flight (RENDER_CONCURRENCY=4, the browsers through the
 * platform's proxy), against raw `page.goto` on one kept page of a bare browser measured
 * just before in the same run (bench/render.bench.ts rawGotoRate). Target: ≥ 0.75x of it
 * at concurrency 2 and 4. The `renders` option (`npm run bench:fetch -- renders`) runs
 * only this part and the render pool's own (bench/render.bench.ts).
 */
export interface FetchBenchOptions {
  seconds: number;
  rounds: number;
  concurrency: number;
  /** Only the rendered fetches (the `renders` option). */
  rendersOnly: boolean;
}

export function fetchBenchOptions(): FetchBenchOptions {
  const n = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  return { seconds: n('BENCH_FETCH_SECONDS', 5), rounds: n('BENCH_FETCH_ROUNDS', 2), concurrency: n('BENCH_FETCH_CONCURRENCY', 64), rendersOnly: process.argv.includes('renders') };
}

interface Round {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** Platform CPU per request, ms. */
  cpuMsPerRequest: number;
}

function call(agent: Agent, o: { port: number; method: string; path: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: o.port, method: o.method, path: o.path, headers: o.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

/** `concurrency` loops calling `one` for `seconds`; `ok` says whether an answer counts. */
async function measure(seconds: number, concurrency: number, pid: number, one: () => Promise<boolean>): Promise<Round> {
  const latencies: number[] = [];
  let errors = 0;
  const cpuBefore = processUsage(pid)?.cpuSeconds ?? 0;
  const started = Date.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        const ok = await one().catch(() => false);
        if (ok) latencies.push(performance.now() - t);
        else errors++;
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  const cpu = (processUsage(pid)?.cpuSeconds ?? 0) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, cpuMsPerRequest: latencies.length ? (cpu * 1000) / latencies.length : 0 };
}

/** Part "plain fetches": the proxy baseline and /fetch/v2 alternate, each keeps its best round. */
async function plainFetches(o: FetchBenchOptions, pid: number, direct: () => Promise<boolean>, viaFetch: () => Promise<boolean>): Promise<void> {
  console.log(`plain fetches: 1 KB loopback page, ${o.concurrency} in flight, ${o.rounds} x ${o.seconds} s rounds, event log ${process.env.EVENT_LOG ?? 'sqlite'}`);
  // Warm-up: connections, JIT, the topics.
  await measure(1, o.concurrency, pid, viaFetch);
  await measure(1, o.concurrency, pid, direct);
  let best: { proxy: Round | null; fetch: Round | null } = { proxy: null, fetch: null };
  for (let round = 0; round < o.rounds; round++) {
    const proxy = await measure(o.seconds, o.concurrency, pid, direct);
    const fetched = await measure(o.seconds, o.concurrency, pid, viaFetch);
    if (!best.proxy || proxy.perSecond > best.proxy.perSecond) best = { ...best, proxy };
    if (!best.fetch || fetched.perSecond > best.fetch.perSecond) best = { ...best, fetch: fetched };
  }
  console.log(line('baseline: straight via proxy', best.proxy!));
  console.log(line('plain fetches: /fetch/v2', best.fetch!));
  report('plain fetches/s (whole path)', best.fetch!.perSecond, 'fetches/s', 1000, { name: 'the same GETs straight through the proxy', value: best.proxy!.perSecond });
}

function line(name: string, r: Round): string {
  return `  ${name.padEnd(28)} ${Math.round(r.perSecond).toLocaleString('en-US').padStart(7)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  platform CPU ${r.cpuMsPerRequest.toFixed(2)} ms/req  errors ${r.errors}`;
}

export async function fetchBench(o: FetchBenchOptions): Promise<void> {
  const origin: Origin = await startOrigin();
  const renderSite = await startRenderSite();
  const [proxyPort, fetchPort, statsPort] = [await freePort(), await freePort(), await freePort()];
  const platform = await startPlatform({
    APP_ROLE: 'proxy,fetch,worker',
    PROXY_PORT: String(proxyPort),
    FETCH_PORT: String(fetchPort),
    STATS_PORT: String(statsPort),
    ALLOW_PRIVATE_TARGETS: 'true',
    PROXY_THROTTLE_SPACING_MS: '0',
    PROXY_MAX_CONNS_PER_KEY: '100000',
    // Renders through the API at 1, 2 and 4 in flight: four kept pages.
    RENDER_CONCURRENCY: '4',
    LOG_LEVEL: 'error',
  });
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const target = `${origin.httpUrl}/1k`;
  const direct = () => call(agent, { port: proxyPort, method: 'GET', path: target, headers: { host: new URL(target).host, 'proxy-authorization': BENCH_AUTH } }).then((r) => r.status === 200 && r.body.length === 1024);
  const payload = JSON.stringify({ url: target });
  const viaFetch = () =>
    call(agent, { port: fetchPort, method: 'POST', path: '/fetch/v2', headers: { 'content-type': 'application/json', authorization: BENCH_AUTH, 'content-length': String(Buffer.byteLength(payload)) }, body: payload }).then(
      (r) => r.status === 200 && (JSON.parse(r.body) as { proxy_status: string }).proxy_status === 'success',
    );
  try {
    if (!o.rendersOnly) await plainFetches(o, platform.pid, direct, viaFetch);
    else console.log('plain fetches: skipped (the renders option)');
    console.log(`  memory of the platform: ${platform.memory().rss.toFixed(0)} MB RSS (peak ${platform.memory().peak.toFixed(0)} MB)`);

    // Rendered fetches through the whole path (API, log, renderer worker, its browser through the proxy, back).
    const page = JSON.stringify({ url: `${renderSite.url}/page`, render: true });
    const viaRender = () =>
      call(agent, { port: fetchPort, method: 'POST', path: '/fetch/v2', headers: { 'content-type': 'application/json', authorization: BENCH_AUTH, 'content-length': String(Buffer.byteLength(page)) }, body: page }).then((r) => {
        const answer = JSON.parse(r.body) as { proxy_status: string; body: string };
        return r.status === 200 && answer.proxy_status === 'success' && answer.body.includes(SCRIPT_TEXT);
      });
    console.log(`rendered fetches: the render site's page (a script and a stylesheet), ${o.seconds} s per concurrency, RENDER_CONCURRENCY=4 (platform CPU excludes the browsers)`);
    const chromiumPath = loadConfig({ CHROMIUM_PATH: process.env.CHROMIUM_PATH }).render.chromiumPath;
    if (!existsSync(chromiumPath)) return void console.log(`  skipped (${chromiumPath} is missing: apt-get install chromium-headless-shell, or set CHROMIUM_PATH)`);
    await measure(2, 4, platform.pid, viaRender); // warm-up: the browsers start
    // The baseline right before the renders, so both see the same load of the machine.
    const raw = await rawGotoRate(chromiumPath, `${renderSite.url}/page`, o.seconds, false);
    console.log(`  baseline: raw page.goto on one kept page ${raw.toFixed(1).padStart(9)} renders/s`);
    const renders = new Map<number, Round>();
    for (const c of [1, 2, 4]) {
      renders.set(c, await measure(o.seconds, c, platform.pid, viaRender));
      console.log(line(`renders via /fetch/v2, c=${c}`, renders.get(c)!));
    }
    for (const c of [2, 4]) {
      const ratio = renders.get(c)!.perSecond / raw;
      console.log(`  renders/s (whole path) at concurrency ${c}: ${renders.get(c)!.perSecond.toFixed(1)}; ${ratio.toFixed(2)}x of raw page.goto (${raw.toFixed(1)}/s); target ≥ 0.75x (${ratio >= 0.75 ? 'met' : 'NOT met'})`);
    }
  } finally {
    agent.destroy();
    await platform.stop();
    await origin.close();
    await renderSite.close();
  }
}
