import { IncomingHttpHeaders, request } from 'node:http';
import { connect as tlsConnect } from 'node:tls';
import { Socket } from 'node:net';

/**
 * The hostile suite's HTTP client. It sends exactly what a case says: the request target
 * as written (no URL parsing, so `..`, `%00`, raw UTF-8 bytes and absolute-form targets reach
 * the server untouched), the headers and the body bytes. Node checks only that the target has
 * no control characters or spaces, which is the wire format's own rule.
 */

export interface WireRequest {
  port: number;
  method: string;
  /** The request target: origin-form (`/items/1`), absolute-form (`http://…`) or, for CONNECT, authority-form. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  timeoutMs: number;
}

export interface WireAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The proxy's answer to the CONNECT itself (it refused the tunnel). */
  toConnect?: boolean;
}

/** Why no answer came: the server closed or reset the connection, or took longer than the case allows. */
export class NoAnswer extends Error {}

/** A request target with characters above U+007F written as their UTF-8 bytes (Node writes the request line as latin1). */
export function rawTarget(target: string): string {
  return Buffer.from(target, 'utf8').toString('latin1');
}

export function send(r: WireRequest): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: r.port, method: r.method, path: rawTarget(r.target), headers: r.headers, agent: false, timeout: r.timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (e) => reject(new NoAnswer(`the answer broke off: ${e.message}`)));
    });
    req.on('timeout', () => {
      req.destroy();
      reject(new NoAnswer(`no answer within ${r.timeoutMs} ms`));
    });
    req.on('error', (e) => reject(new NoAnswer(`no answer: ${e.message}`)));
    req.end(r.body);
  });
}

/**
 * CONNECT through the proxy, then one request inside the tunnel (plain HTTP, or TLS when
 * `tls` names the server name to present; the proxy's CA is not checked: the question is
 * only whether the proxy refuses). A refused CONNECT answers with its own status.
 */
export function sendThroughTunnel(
  r: WireRequest & { inner: { method: string; target: string; headers: Record<string, string> }; tls?: { ca: string } },
): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const connectReq = request({ host: '127.0.0.1', port: r.port, method: 'CONNECT', path: rawTarget(r.target), headers: r.headers, agent: false, timeout: r.timeoutMs });
    const fail = (why: string) => reject(new NoAnswer(why));
    connectReq.on('timeout', () => {
      connectReq.destroy();
      fail(`no answer to CONNECT within ${r.timeoutMs} ms`);
    });
    connectReq.on('error', (e) => fail(`no answer to CONNECT: ${e.message}`));
    connectReq.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), toConnect: true }));
    });
    connectReq.on('connect', (res, socket: Socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0), toConnect: true });
      }
      const inner = request(
        {
          method: r.inner.method,
          path: rawTarget(r.inner.target),
          headers: r.inner.headers,
          timeout: r.timeoutMs,
          createConnection: () => (r.tls ? tlsConnect({ socket, ca: r.tls.ca, rejectUnauthorized: false }) : socket),
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            socket.destroy();
            resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) });
          });
          answer.on('error', (e) => fail(`the answer inside the tunnel broke off: ${e.message}`));
        },
      );
      inner.on('timeout', () => {
        inner.destroy();
        socket.destroy();
        fail(`no answer inside the tunnel within ${r.timeoutMs} ms`);
      });
      inner.on('error', (e) => fail(`no answer inside the tunnel: ${e.message}`));
      inner.end();
    });
    connectReq.end();
  });
}
