import { Proxy } from 'http-mitm-proxy';
import type { IncomingMessage } from 'node:http';
import { Duplex, PassThrough } from 'node:stream';
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

  it('hands each accepted tunnel to us, paused, with its first bytes, instead of a loopback connection', () => {
    const proxy = new Proxy();
    const entered: unknown[][] = [];
    new MitmInternals(proxy).onTunnel((...args) => entered.push(args));
    const connect = { url: 'site.test:443' } as IncomingMessage;
    const socket = new PassThrough();
    const head = Buffer.from([0x16, 3, 1]);
    (proxy as unknown as { _onHttpServerConnectData(req: IncomingMessage, socket: Duplex, head: Buffer): void })._onHttpServerConnectData(connect, socket, head);
    expect(entered).toEqual([[connect, socket, head]]);
    expect(socket.isPaused()).toBe(true);
  });

  it('refuses a library without the hooks', () => {
    expect(() => new MitmInternals({} as Proxy)).toThrow('http-mitm-proxy lacks _onError');
  });
});
