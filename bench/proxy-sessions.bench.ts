import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { BENCH_PROXY_KEY, startCrawlhubProxy, startOrigin } from './proxy-support';

/**
 * `npm run bench:proxy -- sessions` (also run after the cells of a full `bench:proxy`): how
 * long a proxy session create takes end to end, one client, one request at a time, on the
 * built platform as a fleet runs it (APP_ROLE=proxy, and APP_ROLE=projector in a process
 * beside it; embedded log and views unless BENCH_PROXY_ENV says otherwise). A create appends its request and waits until the session's decision is
 * in the views, so this is the write path's latency, not the proxy's forwarding speed.
 *
 * Printed, each after BENCH_SESSIONS_WARMUP unmeasured creates and over BENCH_SESSIONS
 * (default 300) measured ones: p50, p90, p99 and mean latency (ms) of
 *   - a plain proxied HTTP 1 KB request (no session): the floor,
 *   - `X-Proxy-Session: create` on a proxied HTTP 1 KB request,
 *   - `POST /sessions` on the proxy port,
 *   - a use of a session (`X-Proxy-Session: <id>`): a view read, no write.
 * Each key gets its own sessions, under the default PROXY_SESSION_LIMIT.
 */
export async function proxySessionsBench(): Promise<void> {
  const count = Number(process.env.BENCH_SESSIONS ?? '300');
  const warmup = Number(process.env.BENCH_SESSIONS_WARMUP ?? '30');
  const origin = await startOrigin();
  const proxy = await startCrawlhubProxy(origin.certFile);
  try {
    console.log(`\nproxy sessions: one client, one request at a time, ${count} measured after ${warmup} unmeasured (load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
    if ('skipped' in proxy) return console.log(`  crawlhub proxy: ${proxy.skipped} (skipped)`);
    const port = Number(new URL(proxy.url).port);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const auth = `Basic ${Buffer.from(`${BENCH_PROXY_KEY}:`).toString('base64')}`;
    const proxied = (headers: Record<string, string>) => call(agent, port, `${origin.httpUrl}/1k`, 'GET', { 'proxy-authorization': auth, ...headers });
    const created = await proxied({ 'x-proxy-session': 'create' });
    const session = created.headers['x-proxy-session'];
    if (created.status !== 200 || typeof session !== 'string') throw new Error(`a session create answered ${created.status} ${created.headers['x-proxy-error'] ?? ''}`);
    const cases: [string, () => Promise<Answer>][] = [
      ['plain proxied request (no session)', () => proxied({})],
      ['X-Proxy-Session: create (proxied request)', () => proxied({ 'x-proxy-session': 'create' })],
      ['POST /sessions', () => call(agent, port, '/sessions', 'POST', { authorization: auth })],
      ['use of a session (X-Proxy-Session: <id>)', () => proxied({ 'x-proxy-session': session })],
    ];
    const width = Math.max(...cases.map(([name]) => name.length)) + 2;
    console.log(`  ${'case'.padEnd(width)}${'p50 ms'.padStart(9)}${'p90 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'mean ms'.padStart(9)}`);
    for (const [name, once] of cases) {
      const times: number[] = [];
      for (let i = 0; i < warmup + count; i++) {
        const t0 = performance.now();
        const a = await once();
        if (a.status !== 200) throw new Error(`${name}: answered ${a.status} ${a.headers['x-proxy-error'] ?? ''}`);
        if (i >= warmup) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
      const mean = times.reduce((a, b) => a + b, 0) / times.length;
      console.log(`  ${name.padEnd(width)}${[at(0.5), at(0.9), at(0.99), mean].map((ms) => ms.toFixed(2).padStart(9)).join('')}`);
    }
    agent.destroy();
  } finally {
    if (!('skipped' in proxy)) await proxy.stop();
    await origin.close();
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** One request to the proxy's port (absolute URL: proxied; a path: the proxy's own routes), its body read and dropped. */
function call(agent: Agent, port: number, path: string, method: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
