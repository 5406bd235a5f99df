import { Agent, IncomingHttpHeaders, request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, Socket } from 'node:net';
import { connect as tlsConnect, TLSSocket } from 'node:tls';
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

/** One answer read off a raw connection (Content-Length or chunked framing, no trailers). */
function readAnswer(socket: Socket): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const done = (a: Answer | Error) => {
      socket.off('data', onData);
      socket.off('error', done);
      socket.off('close', onClose);
      if (a instanceof Error) reject(a);
      else resolve(a);
    };
    const onClose = () => done(new Error(`closed after ${buf.length} bytes of an answer`));
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
      const headers: IncomingHttpHeaders = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      const status = Number(statusLine.split(' ')[1]);
      if (headers['transfer-encoding'] !== 'chunked') {
        const length = Number(headers['content-length'] ?? 0);
        if (buf.length < end + 4 + length) return;
        return done({ status, headers, body: buf.subarray(end + 4, end + 4 + length).toString() });
      }
      const chunks: Buffer[] = [];
      for (let at = end + 4; ; ) {
        const lineEnd = buf.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
        if (buf.length < lineEnd + 2 + size + 2) return;
        if (size === 0) return done({ status, headers, body: Buffer.concat(chunks).toString() });
        chunks.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
    };
    socket.on('data', onData);
    socket.on('error', done);
    socket.on('close', onClose);
  });
}

/**
 * A CONNECT tunnel of the proxy under TLS (trusting `ca`; `session`: one to resume),
 * for raw requests one after the other on the same connection (`exchange`).
 */
export function openTunnel(port: number, target: string, o: { key: string; ca: string; connectHeaders?: string[]; session?: Buffer }): Promise<{ socket: TLSSocket; exchange(request: string): Promise<Answer>; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const raw = new Socket();
    raw.once('error', reject);
    raw.connect(port, '127.0.0.1', () => raw.write([`CONNECT ${target} HTTP/1.1`, `Host: ${target}`, `Proxy-Authorization: ${basic(o.key)}`, ...(o.connectHeaders ?? []), '', ''].join('\r\n')));
    raw.once('data', (chunk: Buffer) => {
      if (!/^HTTP\/1\.1 200/.test(chunk.toString('latin1'))) return reject(new Error(`CONNECT refused: ${chunk.toString('latin1').split('\r\n')[0]}`));
      const host = target.slice(0, target.lastIndexOf(':')).replace(/^\[(.*)\]$/, '$1');
      const socket = tlsConnect({ socket: raw, servername: isIP(host) ? undefined : host, ca: o.ca, session: o.session }, () => {
        socket.off('error', reject);
        const closed = new Promise<void>((r) => socket.once('close', () => r()));
        resolve({ socket, closed, exchange: (request) => {
          const answer = readAnswer(socket);
          socket.write(request);
          return answer;
        } });
      });
      socket.once('error', reject);
    });
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
