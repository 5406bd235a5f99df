import type { Proxy } from 'http-mitm-proxy';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';

/** The parts of http-mitm-proxy 1.1.0 below its public API that MitmInternals touches (not in its typings). */
interface Internals {
  /** CONNECT requests by the `remotePort:localPort` of the loopback connection that carries their tunnel to the library's servers. */
  connectRequests: Record<string, IncomingMessage>;
  /** Its TLS servers by the host part of a CONNECT's `req.url` (everything before the first colon). */
  sslServers: Record<string, { port: number; server?: HttpsServer }>;
  httpServer?: HttpServer;
  httpsServer?: HttpsServer;
  _createHttpsServer(options: object, cb: (port: number, server: HttpsServer, wss: unknown) => void): void;
  _onError(kind: string, ctx: unknown, err: Error): void;
  _onWebSocketServerConnect(isSSL: boolean, ws: { terminate(): void }): void;
}

/**
 * The one place crawlhub reaches inside http-mitm-proxy (pinned at 1.1.0 in package.json;
 * mitm-internals.spec.ts checks each hook against the installed library). Its public API
 * covers CONNECT and certificates, but not these, each of which the proxy needs:
 * - errors: the library prints every error with console.error before calling the public
 *   onError handlers; ours go to a debug line instead (the proxy answers them itself);
 * - WebSockets: it would forward them without our checks, and its close handler throws
 *   when no upstream socket exists; the public onWebSocketConnection runs too late;
 * - its TLS servers (the SNI one, one per intercepted IP literal) are made inside the
 *   tunnel handling: each must take our request handler before it serves;
 * - the CONNECT request behind a request inside a tunnel (it keeps them by loopback port);
 * - an IPv6 literal, which it cannot name (`[::1]:443` splits at the first colon), is
 *   served by a TLS server registered under a key of ours.
 */
export class MitmInternals {
  private readonly internals: Internals;

  constructor(proxy: Proxy) {
    this.internals = proxy as unknown as Internals;
    for (const hook of ['_createHttpsServer', '_onError', '_onWebSocketServerConnect'] as const) {
      if (typeof this.internals[hook] !== 'function') throw new Error(`http-mitm-proxy lacks ${hook}: crawlhub's proxy needs http-mitm-proxy 1.1.0`);
    }
  }

  /** Every error of the library goes to `log` (never to the console). */
  routeErrors(log: (kind: string, err: Error) => void): void {
    this.internals._onError = (kind, _ctx, err) => log(kind, err);
  }

  /** WebSocket upgrades are closed before the library sees them. */
  refuseWebSockets(): void {
    this.internals._onWebSocketServerConnect = (_ssl, ws) => ws.terminate();
  }

  /** `adopt` gets each TLS server the library makes, before the library's callback. */
  onTlsServer(adopt: (server: HttpsServer) => void): void {
    const create = this.internals._createHttpsServer.bind(this.internals);
    this.internals._createHttpsServer = (options, cb) =>
      create(options, (port, server, wss) => {
        adopt(server);
        cb(port, server, wss);
      });
  }

  /** The CONNECT whose tunnel carries `req` (a request that reached one of the library's servers through a tunnel), if any. */
  connectRequestOf(req: IncomingMessage): IncomingMessage | undefined {
    return this.internals.connectRequests[`${req.socket.remotePort}:${req.socket.localPort}`];
  }

  /**
   * A TLS server of the library's kind (adopted like the others) with `options`, listening on
   * a port of its own, that tunnels CONNECTed to `key` (as their `req.url` host part) reach.
   */
  addTlsServer(key: string, options: { key: string; cert: string; hosts: string[] }): Promise<void> {
    return new Promise((resolve) =>
      this.internals._createHttpsServer(options, (port, server) => {
        this.internals.sslServers[key] = { port, server };
        resolve();
      }),
    );
  }

  /** Every server the library listens with, for a shutdown that closes their connections. */
  servers(): HttpServer[] {
    const { httpServer, httpsServer, sslServers } = this.internals;
    return [httpServer, httpsServer, ...Object.values(sslServers ?? {}).map((s) => s.server)].filter((s): s is HttpServer => !!s);
  }
}
