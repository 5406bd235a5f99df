import { createServer, Server } from 'node:http';
import { systemClock } from '@crawlhub/contracts';
import { ProxyFetcher } from './proxy-fetcher';

/** A stand-in proxy: cuts the first `cut` connections without an answer (a replica dying), then answers 200. */
async function flakyProxy(cut: number): Promise<{ url: string; connections: () => number; server: Server }> {
  let connections = 0;
  const server = createServer((req, res) => {
    connections++;
    if (connections <= cut) return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`fetched ${req.url}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, connections: () => connections, server };
}

const requestOf = (deadlineInMs: number, method = 'GET') => ({
  id: '00000000-0000-0000-0000-000000000001',
  user: 'key-1',
  url: 'http://127.0.0.1:9/page',
  method,
  headers: [],
  body: null,
  region: null,
  device: null,
  jobId: null,
  render: false,
  screenshot: false,
  deadline: Date.now() + deadlineInMs,
});

describe('ProxyFetcher', () => {
  it('tries again on a new connection when the proxy cuts one before answering (a replica stopping), within the deadline', async () => {
    const proxy = await flakyProxy(2);
    const fetcher = new ProxyFetcher({ proxyUrl: proxy.url, maxResponseBytes: 1 << 20, maxSockets: 4, clock: systemClock });
    try {
      const outcome = await fetcher.fetch(requestOf(10_000), 'token');
      expect([outcome.proxyStatus, outcome.body.toString()]).toEqual(['success', 'fetched http://127.0.0.1:9/page']);
      expect(proxy.connections()).toBe(3);
    } finally {
      fetcher.close();
      proxy.server.close();
    }
  });

  it('answers proxy_unreachable when no proxy answers before the deadline', async () => {
    const proxy = await flakyProxy(Number.MAX_SAFE_INTEGER);
    const fetcher = new ProxyFetcher({ proxyUrl: proxy.url, maxResponseBytes: 1 << 20, maxSockets: 4, clock: systemClock });
    try {
      const outcome = await fetcher.fetch(requestOf(1000), 'token');
      expect([outcome.proxyStatus, outcome.error?.code]).toEqual(['fail', 'proxy_unreachable']);
      expect(proxy.connections()).toBeGreaterThan(1);
    } finally {
      fetcher.close();
      proxy.server.close();
    }
  });

  it('does not send a POST again once it may have reached the proxy (it could act twice on the website)', async () => {
    const proxy = await flakyProxy(1);
    const fetcher = new ProxyFetcher({ proxyUrl: proxy.url, maxResponseBytes: 1 << 20, maxSockets: 4, clock: systemClock });
    try {
      const outcome = await fetcher.fetch({ ...requestOf(10_000, 'POST'), body: Buffer.from('order=1').toString('base64') }, 'token');
      expect([outcome.proxyStatus, outcome.error?.code]).toEqual(['fail', 'proxy_unreachable']);
      expect(proxy.connections()).toBe(1);
    } finally {
      fetcher.close();
      proxy.server.close();
    }
  });
});
