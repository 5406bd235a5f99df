import { Proxy } from 'http-mitm-proxy';
import type { IncomingMessage } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { MitmInternals } from './mitm-internals';

/** Each hook against the installed http-mitm-proxy: a new version that moves one fails here, not in production. */
describe('MitmInternals (the one use of http-mitm-proxy internals)', () => {
  it('routes the library’s errors to us instead of the console', () => {
    const proxy = new Proxy();
    const seen: string[] = [];
    new MitmInternals(proxy).routeErrors((kind, err) => seen.push(`${kind}: ${err.message}`));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      (proxy as unknown as { _onError(kind: string, ctx: null, err: Error): void })._onError('HTTPS_CLIENT_ERROR', null, new Error('boom'));
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
    expect(seen).toEqual(['HTTPS_CLIENT_ERROR: boom']);
  });

  it('closes WebSockets before the library forwards them', () => {
    const proxy = new Proxy();
    new MitmInternals(proxy).refuseWebSockets();
    const ws = { terminate: jest.fn() };
    (proxy as unknown as { _onWebSocketServerConnect(ssl: boolean, ws: unknown, req: unknown): void })._onWebSocketServerConnect(true, ws, {});
    expect(ws.terminate).toHaveBeenCalled();
  });

  it('finds the CONNECT behind a request by the ports of its loopback connection, as the library files it', () => {
    const proxy = new Proxy();
    const connect = { url: 'site.test:443' } as IncomingMessage;
    // The library files it under `${conn.localPort}:${conn.remotePort}` of its own connection to its server.
    (proxy as unknown as { connectRequests: Record<string, IncomingMessage> }).connectRequests['50001:50002'] = connect;
    const inner = { socket: { remotePort: 50001, localPort: 50002 } } as unknown as IncomingMessage;
    expect(new MitmInternals(proxy).connectRequestOf(inner)).toBe(connect);
    expect(new MitmInternals(proxy).connectRequestOf({ socket: { remotePort: 1, localPort: 2 } } as unknown as IncomingMessage)).toBeUndefined();
  });

  it('adopts each TLS server the library makes, registers ours under a key, and lists them for shutdown', async () => {
    const proxy = new Proxy();
    // What listen() sets before the library makes a server (a loopback address, no timeout).
    Object.assign(proxy, { httpHost: '127.0.0.1', timeout: 0 });
    const internals = new MitmInternals(proxy);
    const adopted: HttpsServer[] = [];
    internals.onTlsServer((server) => adopted.push(server));
    await internals.addTlsServer('ipv6-1', { key: '', cert: '', hosts: ['::1'] });
    try {
      expect(adopted).toHaveLength(1);
      expect((proxy as unknown as { sslServers: Record<string, { port: number; server: HttpsServer }> }).sslServers['ipv6-1']).toEqual({ port: expect.any(Number), server: adopted[0] });
      expect(internals.servers()).toEqual([adopted[0]]);
    } finally {
      adopted[0].close();
    }
  });

  it('refuses a library without the hooks', () => {
    expect(() => new MitmInternals({} as Proxy)).toThrow('http-mitm-proxy lacks _createHttpsServer');
  });
});
