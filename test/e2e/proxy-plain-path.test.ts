import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, createServer, get as httpGet, IncomingMessage, Server } from 'node:http';
import { AddressInfo, connect as netConnect, Socket } from 'node:net';
import { ProxyForwarder } from '@crawlhub/proxy';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';

/**
 * The plain-HTTP data path (libs/proxy/src/wire): raw sockets and a strict parser of the
 * proxy's own. Request-smuggling shapes are refused with our 400 (never forwarded, never a
 * crash, the proxy keeps serving), the framings clients use reach the website intact
 * (chunked bodies, pipelining, HTTP/1.0), and a slow client makes the proxy stop reading the
 * website instead of buffering the whole body.
 */
/** The maximum a TCP buffer of this kind may grow to (the third figure of net.ipv4.tcp_rmem / tcp_wmem). */
function tcpBufferMax(kind: 'rmem' | 'wmem'): number {
  try {
    return Number(readFileSync(`/proc/sys/net/ipv4/tcp_${kind}`, 'utf8').trim().split(/\s+/)[2]) || 0;
  } catch {
    return 0;
  }
}

/**
 * What a response's way from the website to a client that reads nothing may hold without
 * the proxy buffering it: the kernel's buffers at the four ends of the two connections (the
 * website's send buffer, the proxy's receive buffer from it, the proxy's send buffer to the
 * client, the client's receive buffer), each at its maximum: a receive buffer grows while
 * its reader keeps up, and the proxy reads the website fast until the client's side is full
 * (a CI run saw 35 MB written: 32 + 4). Plus 8 MB for the proxy's own read buffers and
 * queued write. 80 MB on these machines (tcp_rmem 32 MB, tcp_wmem 4 MB).
 */
const UNBUFFERED_BOUND = 2 * (Math.max(tcpBufferMax('rmem'), 6 << 20) + Math.max(tcpBufferMax('wmem'), 4 << 20)) + (8 << 20);

describe('smart proxy: the plain-HTTP data path', () => {
  let platform: TestPlatform;
  let proxy: StartedProxy;
  let origin: Server;
  let originPort: number;
  let key: string;
  /** What the website received: method, url, headers (raw), body. */
  const hits: { method: string; url: string; headers: string[]; body: string }[] = [];
  /** Bytes the website managed to write of /huge (it waits whenever its socket is full). */
  let hugeWritten = 0;
  /** Twice what the way may hold unbuffered: a proxy that buffered the response would let the website write past the bound. */
  const HUGE = 2 * UNBUFFERED_BOUND;
  /** Random bytes (a reused read buffer overwritten too early would show in them), /pattern's body. */
  const PATTERN = randomBytes(6 * 1024 * 1024);

  beforeAll(async () => {
    origin = createServer((req, res) => {
      if (req.url === '/huge') {
        hugeWritten = 0;
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        res.writeHead(200, { 'Content-Length': String(HUGE) });
        const pump = () => {
          while (hugeWritten < HUGE) {
            hugeWritten += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      if (req.url?.startsWith('/pattern')) {
        // Written in pieces of uneven sizes, so reads of the proxy end at ever other offsets.
        if (req.url.endsWith('length')) res.writeHead(200, { 'Content-Length': String(PATTERN.length) });
        let at = 0;
        const pump = () => {
          while (at < PATTERN.length) {
            const n = 1000 + ((at * 7919) % 90_000);
            const piece = PATTERN.subarray(at, at + n);
            at += piece.length;
            if (!res.write(piece)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      if (req.url === '/sized') return void res.writeHead(200, { 'Content-Length': '5' }).end('hello');
      if (req.url === '/nothing') return void res.writeHead(204).end();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('latin1');
        hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.rawHeaders, body });
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        // No Content-Length: chunked to an HTTP/1.1 client, until the close to an HTTP/1.0 one.
        res.end(`${req.method} ${req.url} ${body.length}`);
      });
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    originPort = (origin.address() as AddressInfo).port;
    platform = await startTestPlatform({
      PROXY_PORT: '0',
      ALLOW_PRIVATE_TARGETS: 'true',
      PROXY_THROTTLE_SPACING_MS: '0',
      // Answers from `localhost` are checked for a body marker in their first 200,000 bytes (more than one socket read).
      PROXY_BAN_RULES: JSON.stringify([{ status: [403, 429, 503] }, { domain: 'localhost', status: [200], body: ['<no such marker>'] }]),
      PROXY_BAN_BODY_BYTES: '200000',
    });
    key = await platform.createKey([1]);
    proxy = await startProxyApp(platform.core, ['error']);
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await platform?.stop();
    origin?.closeAllConnections();
    await new Promise((r) => origin?.close(r));
  }, 30_000);

  /** Sends `payload` on a new connection and collects what comes back until the proxy closes it (or `waitMs` passes). */
  function raw(payload: string | Buffer, waitMs = 3000): Promise<string> {
    return new Promise((resolve) => {
      const s = netConnect({ host: '127.0.0.1', port: proxy.port }, () => s.write(payload));
      let got = '';
      const timer = setTimeout(() => s.destroy(), waitMs);
      s.on('data', (d: Buffer) => (got += d.toString('latin1')));
      s.on('close', () => {
        clearTimeout(timer);
        resolve(got);
      });
      s.on('error', () => undefined);
    });
  }

  const auth = () => `Proxy-Authorization: ${basic(key)}\r\n`;
  const target = () => `http://127.0.0.1:${originPort}`;

  it.each([
    ['Content-Length and Transfer-Encoding (CL.TE / TE.CL)', (t: string, a: string) => `POST ${t}/s HTTP/1.1\r\nHost: x\r\n${a}Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG`],
    ['two different Content-Length headers', (t: string, a: string) => `POST ${t}/s HTTP/1.1\r\nHost: x\r\n${a}Content-Length: 3\r\nContent-Length: 40\r\n\r\nabc`],
    ['an obfuscated Transfer-Encoding', (t: string, a: string) => `POST ${t}/s HTTP/1.1\r\nHost: x\r\n${a}Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n0\r\n\r\n`],
    ['obs-fold hiding a header', (t: string, a: string) => `GET ${t}/s HTTP/1.1\r\nHost: x\r\n${a}X-A: 1\r\n Transfer-Encoding: chunked\r\n\r\n`],
    ['a space before the colon', (t: string, a: string) => `POST ${t}/s HTTP/1.1\r\nHost: x\r\n${a}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n`],
    ['a bare LF between headers', (t: string, a: string) => `GET ${t}/s HTTP/1.1\r\nHost: x\r\n${a}X-A: 1\nContent-Length: 5\r\n\r\nhello`],
    ['a bad chunk size', (t: string, a: string) => `POST ${t}/s HTTP/1.1\r\nHost: x\r\n${a}Transfer-Encoding: chunked\r\n\r\n5x\r\nhello\r\n0\r\n\r\n`],
    ['chunk data longer than its size', (t: string, a: string) => `POST ${t}/s HTTP/1.1\r\nHost: x\r\n${a}Transfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n`],
  ])('refuses %s with 400 bad_request in the proxy style, forwards nothing, and keeps serving', async (_why, build) => {
    const before = hits.length;
    const answer = await raw(build(target(), auth()));
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad request\r\n/);
    expect(answer).toContain('X-Proxy-Error: bad_request\r\n');
    expect(answer).toContain('X-Crawlera-Error: bad_request\r\n');
    expect(answer).toContain('Content-Type: text/plain');
    expect(answer.split('\r\n\r\n')[1]).toMatch(/^Bad request: .+\n$/);
    // The connection is closed after the refusal (raw resolved on close), and nothing reached the website.
    await new Promise((r) => setTimeout(r, 100));
    expect(hits.slice(before).filter((h) => h.url === '/s')).toEqual([]);
    // Nothing left in flight (a refused request would otherwise hold its key's slot until a restart).
    expect(proxy.context.get(ProxyForwarder).inFlight).toBe(0);
    const ok = await raw(`GET ${target()}/after HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
    expect(ok).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers bodiless requests on one kept-alive connection with exactly the website\'s bytes (the whole-body path: length, HEAD, 204)', async () => {
    const get = (path: string, method = 'GET', last = false) => `${method} ${target()}${path} HTTP/1.1\r\nHost: x\r\n${auth()}${last ? 'Connection: close\r\n' : ''}\r\n`;
    const answer = await raw(get('/sized') + get('/sized', 'HEAD') + get('/nothing') + get('/sized', 'GET', true));
    const answers = answer.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 204', 'HTTP/1.1 200']);
    expect(answers.map((a) => a.split('\r\n\r\n')[1])).toEqual(['hello', '', '', 'hello']);
    for (const a of [answers[0], answers[1], answers[3]]) {
      expect(a).toContain('Content-Length: 5\r\n');
      expect(a).not.toContain('Transfer-Encoding');
    }
    expect(answers[3]).toContain('Connection: close\r\n');
  });

  it('forwards a chunked request body, pipelined requests in order, and answers an HTTP/1.0 client until the close', async () => {
    const pipelined = await raw(
      `POST ${target()}/one HTTP/1.1\r\nHost: x\r\n${auth()}Transfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n` +
        `GET ${target()}/two HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`,
    );
    const answers = pipelined.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    // The website answered without a length: chunked to this HTTP/1.1 client.
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answers[0]).toContain('Transfer-Encoding: chunked\r\n');
    expect(answers[0].endsWith('\r\n\r\nc\r\nPOST /one 11\r\n0\r\n\r\n')).toBe(true);
    expect(answers[1]).toMatch(/Connection: close\r\n[\s\S]*GET \/two 0/);
    const one = hits.find((h) => h.url === '/one')!;
    expect(one.body).toBe('hello world');
    // The body went out with its length (the client's chunked framing is hop-by-hop).
    expect(one.headers).toContain('Content-Length');
    expect(one.headers).not.toContain('Transfer-Encoding');
    const old = await raw(`GET ${target()}/old HTTP/1.0\r\nHost: x\r\n${auth()}\r\n`);
    expect(old).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(old).toContain('Connection: close\r\n');
    expect(old).not.toContain('Transfer-Encoding');
    expect(old.endsWith('GET /old 0')).toBe(true);
  });

  it('forwards every byte of large bodies to a client that reads in fits and starts (writes to it queue), on one kept-alive connection, with and without a ban check of a long prefix', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const fetchDigest = (url: string, slow: boolean) =>
      new Promise<{ digest: string; bytes: number }>((resolve, reject) => {
        const headers = { 'Proxy-Authorization': basic(key), ...(url.includes('//localhost') ? {} : { 'X-Proxy-No-Bancheck': '1' }) };
        const req = httpGet({ host: '127.0.0.1', port: proxy.port, path: url, agent, headers }, (res: IncomingMessage) => {
          const hash = createHash('sha256');
          let bytes = 0;
          let sincePause = 0;
          res.on('data', (d: Buffer) => {
            hash.update(d);
            bytes += d.length;
            sincePause += d.length;
            // A pause every 256 KiB: the proxy's writes to this socket queue meanwhile.
            if (slow && sincePause >= 256 * 1024) {
              sincePause = 0;
              res.pause();
              setTimeout(() => res.resume(), 15);
            }
          });
          res.on('end', () => resolve({ digest: hash.digest('hex'), bytes }));
          res.on('error', reject);
        });
        req.on('error', reject);
      });
    const expected = createHash('sha256').update(PATTERN).digest('hex');
    try {
      const viaLocalhost = `http://localhost:${originPort}`;
      for (const [url, slow] of [
        [`${target()}/pattern-length`, true],
        [`${target()}/pattern-chunked`, true],
        [`${target()}/pattern-length`, false],
        [`${target()}/pattern-length`, true],
        // The ban check reads a prefix of several reads before anything goes to the client.
        [`${viaLocalhost}/pattern-length`, false],
        [`${viaLocalhost}/pattern-chunked`, true],
      ] as const) {
        expect({ url, slow, ...(await fetchDigest(url, slow)) }).toEqual({ url, slow, digest: expected, bytes: PATTERN.length });
      }
    } finally {
      agent.destroy();
    }
  }, 60_000);

  it('does not buffer a large response for a slow client: the website waits, and every byte arrives', async () => {
    const rssBefore = process.memoryUsage().rss;
    const s = new Socket();
    await new Promise<void>((r) => s.connect(proxy.port, '127.0.0.1', r));
    s.pause();
    s.write(`GET ${target()}/huge HTTP/1.1\r\nHost: x\r\n${auth()}X-Proxy-No-Bancheck: 1\r\n\r\n`);
    // The client reads nothing for a while: what the website could write is bounded by the
    // socket buffers on the way (UNBUFFERED_BOUND), not by the body, twice as large.
    await new Promise((r) => setTimeout(r, 1500));
    const writtenWhilePaused = hugeWritten;
    const rssWhilePaused = process.memoryUsage().rss;
    expect(writtenWhilePaused).toBeGreaterThan(0);
    expect(writtenWhilePaused).toBeLessThan(UNBUFFERED_BOUND);
    expect(rssWhilePaused - rssBefore).toBeLessThan(40 * 1024 * 1024);
    let received = 0;
    await new Promise<void>((resolve, reject) => {
      s.on('data', (d: Buffer) => {
        received += d.length;
        if (received >= HUGE) resolve();
      });
      s.on('error', reject);
      s.resume();
    });
    s.destroy();
    // Head plus the whole body.
    expect(received).toBeGreaterThan(HUGE);
    expect(hugeWritten).toBe(HUGE);
  }, 60_000);
});
