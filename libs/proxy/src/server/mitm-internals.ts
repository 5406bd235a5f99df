import type { Proxy } from 'http-mitm-proxy';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';

/** The parts of http-mitm-proxy 1.1.0 below its public API that MitmInternals touches (not in its typings). */
interface Internals {
  httpServer?: HttpServer;
  _onError(kind: string, ctx: unknown, err: Error): void;
  _onWebSocketServerConnect(isSSL: boolean, ws: { terminate(): void }): void;
  /** Called with the first bytes of a tunnel after the library answered 200 to its CONNECT. */
  _onHttpServerConnectData(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/**
 * The one place crawlhub reaches inside http-mitm-proxy (pinned at 1.1.0 in package.json;
 * mitm-internals.spec.ts checks each hook against the installed library). Its public API
 * covers CONNECT and certificates, but not these, each of which the proxy needs:
 * - errors: the library prints every error with console.error before calling the public
 *   onError handlers; ours go to a debug line instead (the proxy answers them itself);
 * - WebSockets: it would forward them without our checks, and its close handler throws
 *   when no upstream socket exists; the public onWebSocketConnection runs too late;
 * - the bytes of a tunnel: the library opens a loopback TCP connection to one of its own
 *   servers per tunnel and pipes the client's socket into it (two more sockets, and every
 *   byte of every request written and read twice more); the proxy takes the tunnel's
 *   socket itself instead and terminates its TLS itself (`onTunnel`).
 */
export class MitmInternals {
  private readonly internals: Internals;

  constructor(proxy: Proxy) {
    this.internals = proxy as unknown as Internals;
    for (const hook of ['_onError', '_onWebSocketServerConnect', '_onHttpServerConnectData'] as const) {
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

  /**
   * `enter` gets each tunnel the library accepted (the CONNECT, the client's socket, paused,
   * and the first bytes it sent) instead of the library's loopback connection to its servers.
   */
  onTunnel(enter: (connect: IncomingMessage, socket: Duplex, head: Buffer) => void): void {
    this.internals._onHttpServerConnectData = (req, socket, head) => {
      socket.pause();
      enter(req, socket, head);
    };
  }

  /** The library's HTTP server (CONNECT and the direct routes), once listening. */
  get httpServer(): HttpServer | undefined {
    return this.internals.httpServer;
  }

  /** Every server the library listens with, for a shutdown that closes their connections. */
  servers(): HttpServer[] {
    return this.internals.httpServer ? [this.internals.httpServer] : [];
  }
}
