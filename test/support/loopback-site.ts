import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A small website on 127.0.0.1 for crawling tests: `/` links to /page/1..n, each page
 * links to the next one, back home, and off-site (another port: another host, not followed).
 * `/slow/<n>` pages take `slowMs` and link to /slow/<n+1> forever.
 */
export interface LoopbackSite {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

export async function startLoopbackSite(options: { pages?: number; slowMs?: number } = {}): Promise<LoopbackSite> {
  const pages = options.pages ?? 5;
  const slowMs = options.slowMs ?? 200;
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.push(path);
    const html = (title: string, links: string[]) =>
      `<!doctype html><html><head><title>${title}</title></head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
    const send = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (path === '/') return send(200, html('Home', [...Array.from({ length: pages }, (_, i) => `/page/${i + 1}`), 'http://127.0.0.1:1/elsewhere', '#top']));
    let m = /^\/page\/(\d+)$/.exec(path);
    if (m && Number(m[1]) >= 1 && Number(m[1]) <= pages) {
      const n = Number(m[1]);
      return send(200, html(`Page ${n}`, [n < pages ? `/page/${n + 1}` : '/', '/', '/missing']));
    }
    m = /^\/slow\/(\d+)$/.exec(path);
    if (m) {
      const n = Number(m[1]);
      setTimeout(() => send(200, html(`Slow ${n}`, [`/slow/${n + 1}`])), slowMs);
      return;
    }
    send(404, html('Not found', []));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
