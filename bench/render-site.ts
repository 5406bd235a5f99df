import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** The text the script of `/page` adds to the DOM: absent from the HTML the server sends. */
export const SCRIPT_TEXT = 'written by the page script';

/**
 * A small website on 127.0.0.1 for the render pool's tests and bench:
 * - `/page`: HTML with a stylesheet (`/style.css`) and a script (`/app.js`) that adds a
 *   paragraph with SCRIPT_TEXT (only a browser that ran the script has it)
 * - `/state`: a script writes into the DOM the cookie, localStorage and sessionStorage it
 *   found, then sets all three
 * - `/linger`: keeps writing after its load, until its document is gone: a timer sets a
 *   cookie, localStorage and sessionStorage every millisecond, and a dedicated worker
 *   keeps fetching `/set-cookie` (which answers with a cookie); what a render leaves
 *   running must not reach the next render
 * - `/hop`: navigates to `/page?n=hopped` as soon as it has loaded (a script's redirect)
 * - `/slow?ms=`: answers after ms
 * - `/redirect?to=`: 302 to `to`
 */
export interface RenderSite {
  url: string;
  /** Paths requested, in order. */
  hits: string[];
  close(): Promise<void>;
}

const PAGE = `<!doctype html><html><head><title>render</title><link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head><body><h1>Rendered</h1></body></html>`;
const STYLE = 'body { font-family: sans-serif; background: #fafafa } h1 { color: #225 } p.js { margin: 2em }';
const SCRIPT = `document.addEventListener('DOMContentLoaded', () => { const p = document.createElement('p'); p.className = 'js'; p.textContent = ${JSON.stringify(SCRIPT_TEXT)}; document.body.appendChild(p); });`;
const LINGER = `<!doctype html><html><body><p>lingering</p><script>
  setInterval(() => {
    document.cookie = 'late=1; Path=/';
    localStorage.setItem('k', 'late');
    sessionStorage.setItem('k', 'late');
  }, 1);
  // A blob worker cannot resolve a relative URL: the page gives it its origin.
  new Worker(URL.createObjectURL(new Blob(["setInterval(() => fetch('" + location.origin + "/set-cookie').catch(() => undefined), 1)"])));
</script></body></html>`;
const HOP = `<!doctype html><html><body><p>hop</p><script>addEventListener('load', () => setTimeout(() => location.replace('/page?n=hopped'), 0));</script></body></html>`;
const STATE = `<!doctype html><html><body><script>
  const seen = document.createElement('p');
  seen.id = 'seen';
  seen.textContent = 'cookie=[' + document.cookie + '] storage=[' + (localStorage.getItem('k') || '') + '] session=[' + (sessionStorage.getItem('k') || '') + ']';
  document.body.appendChild(seen);
  document.cookie = 'visited=1; Path=/';
  localStorage.setItem('k', 'kept');
  sessionStorage.setItem('k', 'kept');
</script></body></html>`;

export async function startRenderSite(): Promise<RenderSite> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    hits.push(url.pathname);
    const send = (type: string, body: string) => res.writeHead(200, { 'content-type': type }).end(body);
    if (url.pathname === '/page') return send('text/html; charset=utf-8', PAGE);
    if (url.pathname === '/style.css') return send('text/css', STYLE);
    if (url.pathname === '/app.js') return send('application/javascript', SCRIPT);
    if (url.pathname === '/state') return send('text/html; charset=utf-8', STATE);
    if (url.pathname === '/linger') return send('text/html; charset=utf-8', LINGER);
    if (url.pathname === '/hop') return send('text/html; charset=utf-8', HOP);
    if (url.pathname === '/set-cookie') return void res.writeHead(204, { 'set-cookie': 'worker=1; Path=/' }).end();
    if (url.pathname === '/redirect') return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    if (url.pathname === '/slow') {
      const timer = setTimeout(() => send('text/html', '<p>slow</p>'), Number(url.searchParams.get('ms') ?? 1000));
      res.on('close', () => clearTimeout(timer));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
