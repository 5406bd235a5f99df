import { Agent, IncomingHttpHeaders, request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { basic } from './platform';

/** Clients of the smart proxy for the proxy tests: absolute-form requests, CONNECT tunnels, and the proxy port's own routes. */

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request through the proxy in absolute form (Node's http client). */
export function viaProxy(port: number, url: string, o: { key?: string | null; headers?: Record<string, string>; method?: string; body?: Buffer | string; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.key !== null && o.key !== undefined) headers['Proxy-Authorization'] = basic(o.key);
    const req = request({ host: '127.0.0.1', port, path: url, method: o.method ?? 'GET', headers: { Host: new URL(url).host, ...headers }, agent: o.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

/** An HTTPS request through a CONNECT tunnel of the proxy (Node's clients), trusting `ca`. */
export function viaTunnel(port: number, target: string, path: string, o: { key: string; ca: string; headers?: Record<string, string>; whileOpen?: (tunnel: Socket) => Promise<void> }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const connectReq = request({ host: '127.0.0.1', port, method: 'CONNECT', path: target, headers: { Host: target, 'Proxy-Authorization': basic(o.key) } });
    connectReq.on('connect', (res, socket) => {
      if (res.statusCode !== 200) return resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
      // The host of `host:port` or `[v6]:port`; TLS sends no server name for an IP literal.
      const host = target.slice(0, target.lastIndexOf(':')).replace(/^\[(.*)\]$/, '$1');
      const req = httpsRequest({ host, path, headers: { Host: target, ...(o.headers ?? {}) }, createConnection: () => tlsConnect({ socket, host, servername: isIP(host) ? undefined : host, ca: o.ca }) }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          // `whileOpen` looks at the proxy while the tunnel is still open.
          Promise.resolve(o.whileOpen?.(socket)).then(() => {
            socket.destroy();
            resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(chunks).toString() });
          }, reject);
        });
      });
      req.on('error', reject);
      req.end();
    });
    connectReq.on('response', (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' }));
    connectReq.on('error', reject);
    connectReq.end();
  });
}

/** An origin-form request to the proxy port itself. */
export function direct(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers, method }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}
