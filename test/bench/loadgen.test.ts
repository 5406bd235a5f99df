import { spawnSync } from 'node:child_process';
import { BODY_100K, BODY_1K, buildLoadgen, findGo, Origin, ProxyUnderTest, runLoadgen, startBareMitm, startDebianProxy, startOrigin } from '../../bench/proxy-support';
import { describeIf, itIf } from '../support/skip';

/**
 * The pieces of `npm run bench:proxy` work: the Go load generator builds, and drives the
 * loopback origin for a second directly and through bare http-mitm-proxy (plain HTTP and
 * intercepted HTTPS, kept and new connections) with every request answered whole; and
 * test/infra/squid.sh starts a squid that forwards HTTP and tunnels HTTPS, when squid is
 * installed (the test never runs apt-get). Skipped (with the reason printed) when Go is
 * missing.
 */
jest.setTimeout(300_000);

const needsGo = { met: findGo() !== null, reason: 'go is not installed (on PATH or in /usr/local/go/bin): bench/loadgen cannot be built' };
const needsSquid = {
  met: spawnSync('bash', ['-c', 'command -v squid || test -x /usr/sbin/squid']).status === 0,
  reason: 'squid is not installed (this test never runs apt-get; npm run bench:proxy installs it)',
};

describeIf(needsGo)('bench:proxy harness', () => {
  let bin: string;
  let origin: Origin;
  let mitm: ProxyUnderTest;

  beforeAll(async () => {
    const built = await buildLoadgen();
    if ('skipped' in built) throw new Error(built.skipped); // go is there: the build failed
    bin = built.path;
    origin = await startOrigin();
    mitm = await startBareMitm(origin.certFile);
  });

  afterAll(async () => {
    await mitm?.stop();
    await origin?.close();
  });

  const cases: [string, () => Parameters<typeof runLoadgen>[1]][] = [
    ['HTTP 1 KB direct', () => ({ url: `${origin.httpUrl}/1k`, concurrency: 4, seconds: 1, expectBytes: BODY_1K })],
    ['HTTP 100 KB direct', () => ({ url: `${origin.httpUrl}/100k`, concurrency: 4, seconds: 1, expectBytes: BODY_100K })],
    ['HTTPS 1 KB direct', () => ({ url: `${origin.httpsUrl}/1k`, concurrency: 4, seconds: 1, caFiles: [origin.certFile], expectBytes: BODY_1K })],
    ['HTTP 1 KB through bare http-mitm-proxy', () => ({ url: `${origin.httpUrl}/1k`, proxy: mitm.url, concurrency: 4, seconds: 1, expectBytes: BODY_1K })],
    // The bare library makes an RSA key per new host (node-forge, seconds on a busy machine): a warm-up long enough for it.
    ['HTTPS 1 KB intercepted by bare http-mitm-proxy, kept tunnel', () => ({ url: `${origin.httpsUrl}/1k`, proxy: mitm.url, concurrency: 4, seconds: 1, warmupSeconds: 5, caFiles: [origin.certFile, ...mitm.caFiles], expectBytes: BODY_1K })],
    ['HTTPS 1 KB intercepted by bare http-mitm-proxy, new connection per request', () => ({ url: `${origin.httpsUrl}/1k`, proxy: mitm.url, concurrency: 2, seconds: 1, warmupSeconds: 0.5, keepAlive: false, caFiles: [origin.certFile, ...mitm.caFiles], expectBytes: BODY_1K })],
  ];

  it.each(cases)('%s: requests answered, no errors', async (_name, load) => {
    const r = await runLoadgen(bin, load());
    expect(r.first_error ?? '').toBe('');
    expect(r.errors).toBe(0);
    expect(r.requests).toBeGreaterThan(0);
    expect(r.rps).toBeGreaterThan(0);
    expect(r.p50_ms).toBeGreaterThan(0);
    expect(r.p99_ms).toBeGreaterThanOrEqual(r.p50_ms);
  });

  itIf(needsSquid)('test/infra/squid.sh: squid forwards HTTP and tunnels HTTPS', async () => {
    const squid = await startDebianProxy('squid', { install: false });
    if ('skipped' in squid) throw new Error(squid.skipped); // squid is installed: it did not start
    try {
      expect(squid.pid).toBeGreaterThan(0);
      const http = await runLoadgen(bin, { url: `${origin.httpUrl}/1k`, proxy: squid.url, concurrency: 2, seconds: 0.5, expectBytes: BODY_1K });
      const https = await runLoadgen(bin, { url: `${origin.httpsUrl}/1k`, proxy: squid.url, concurrency: 2, seconds: 0.5, caFiles: [origin.certFile], expectBytes: BODY_1K });
      for (const r of [http, https]) {
        expect(r.first_error ?? '').toBe('');
        expect(r.requests).toBeGreaterThan(0);
      }
    } finally {
      await squid.stop();
    }
  });

  it('counts a wrong body size as an error', async () => {
    const r = await runLoadgen(bin, { url: `${origin.httpUrl}/1k`, concurrency: 1, seconds: 0.3, expectBytes: 5 });
    expect(r.requests).toBe(0);
    expect(r.errors).toBeGreaterThan(0);
    expect(r.first_error).toMatch(/expected 5/);
  });
});
