import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo, createServer as createNetServer, connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CONFIG_DOCS } from '@crawlhub/config';

/**
 * The pieces of `npm run bench:proxy` (bench/proxy.bench.ts), also used by
 * test/bench/loadgen.test.ts: the loopback origin, the Go load generator, the reference
 * proxies (bare http-mitm-proxy, squid, tinyproxy) and crawlhub's own proxy, each with
 * the pid whose CPU and memory the bench samples.
 */

/** The repository root (this file runs from bench/ under ts-jest and from dist/bench/ when built). */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'bench', 'loadgen', 'main.go'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no repository root above ${__dirname}`);
    dir = up;
  }
  return dir;
}

export const CACHE_ROOT = process.env.CRAWLHUB_CACHE || join(homedir(), '.cache', 'crawlhub');

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port, false after timeoutMs. */
export async function waitForPort(port: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

function run(cmd: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env: options.env ?? process.env, cwd: options.cwd, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 127) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (err && code === 127 ? err.message : '')) });
    });
  });
}

// ---------------------------------------------------------------------------------------
// The origin

export interface Origin {
  httpUrl: string;
  httpsUrl: string;
  /** The origin's self-signed certificate (ECDSA P-256, IP SAN 127.0.0.1), PEM file. */
  certFile: string;
  dir: string;
  /** TCP connections the origin has accepted so far (HTTP and HTTPS): shows whether a proxy reuses its upstream connections. */
  connections(): number;
  close(): Promise<void>;
}

export const BODY_1K = 1024;
export const BODY_100K = 100 * 1024;

/**
 * A Node HTTP and HTTPS origin on 127.0.0.1 with keep-alive: GET /1k and /100k answer
 * bodies of those sizes from memory. Its certificate is made at run time with openssl
 * (ECDSA, so the origin's handshakes are cheap and the figures are the proxy's).
 */
export async function startOrigin(): Promise<Origin> {
  const dir = mkdtempSync(join(tmpdir(), 'crawlhub-bench-origin-'));
  const certFile = join(dir, 'origin.crt');
  const keyFile = join(dir, 'origin.key');
  const r = await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { timeoutMs: 30_000 });
  if (r.code !== 0) throw new Error(`openssl could not make the origin's certificate: ${r.stderr.trim()}`);
  const bodies: Record<string, Buffer> = { '/1k': Buffer.alloc(BODY_1K, 'a'), '/100k': Buffer.alloc(BODY_100K, 'b') };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const body = bodies[req.url ?? ''];
    if (!body) {
      res.writeHead(404, { 'content-length': '0' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
    res.end(body);
  };
  const options = { keepAliveTimeout: 120_000, headersTimeout: 130_000, requestTimeout: 0, maxRequestsPerSocket: 0 };
  const http = createHttpServer(options, handler);
  const https = createHttpsServer({ ...options, cert: readFileSync(certFile), key: readFileSync(keyFile) }, handler);
  const listen = (s: Server) => new Promise<number>((resolve) => s.listen(0, '127.0.0.1', 1024, () => resolve((s.address() as AddressInfo).port)));
  let accepted = 0;
  for (const s of [http, https]) s.on('connection', () => accepted++);
  const [httpPort, httpsPort] = [await listen(http), await listen(https)];
  return {
    httpUrl: `http://127.0.0.1:${httpPort}`,
    httpsUrl: `https://127.0.0.1:${httpsPort}`,
    certFile,
    dir,
    connections: () => accepted,
    close: async () => {
      for (const s of [http, https]) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------
// The load generator

export interface LoadResult {
  requests: number;
  errors: number;
  /** Requests that completed after the measured window. */
  late: number;
  rps: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  seconds: number;
  bytes: number;
  cpu_s: number;
  gomaxprocs: number;
  first_error?: string;
}

/**
 * Builds bench/loadgen (Go, standard library only) into CACHE_ROOT/bin/loadgen-<hash of
 * its sources>, so a changed source is rebuilt and an unchanged one never is. Offline:
 * GOPROXY=off, GOTOOLCHAIN=local. Returns the binary, or why it cannot be had.
 */
/** `go` on PATH, else the official tarball's place (PATH of non-login shells often lacks it); null when neither runs. */
export function findGo(): string | null {
  return ['go', '/usr/local/go/bin/go'].find((bin) => spawnSync(bin, ['version'], { timeout: 30_000 }).status === 0) ?? null;
}

export async function buildLoadgen(): Promise<{ path: string } | { skipped: string }> {
  const src = join(repoRoot(), 'bench', 'loadgen');
  const hash = createHash('sha256');
  for (const f of ['go.mod', 'main.go']) hash.update(readFileSync(join(src, f)));
  const bin = join(CACHE_ROOT, 'bin', `loadgen-${hash.digest('hex').slice(0, 12)}`);
  if (existsSync(bin)) return { path: bin };
  const goBin = findGo();
  if (!goBin) return { skipped: 'go not found on PATH nor in /usr/local/go/bin' };
  mkdirSync(dirname(bin), { recursive: true });
  const tmp = `${bin}.tmp-${process.pid}`;
  const r = await run(goBin, ['build', '-trimpath', '-o', tmp, '.'], { cwd: src, env: { ...process.env, GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod -buildvcs=false', CGO_ENABLED: '0' }, timeoutMs: 300_000 });
  if (r.code !== 0) return { skipped: `go build of bench/loadgen failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}` };
  renameSync(tmp, bin);
  return { path: bin };
}

export interface LoadOptions {
  url: string;
  proxy?: string;
  concurrency: number;
  seconds: number;
  warmupSeconds?: number;
  keepAlive?: boolean;
  caFiles?: string[];
  expectBytes?: number;
  /** GOMAXPROCS of the generator (default BENCH_LOADGEN_PROCS or 1: the machine has 2 cores for generator, origin and proxy). */
  procs?: number;
}

export function loadgenProcs(): number {
  return Math.max(1, Number(process.env.BENCH_LOADGEN_PROCS ?? '1') || 1);
}

/** Runs the load generator once and returns its figures. */
export async function runLoadgen(bin: string, o: LoadOptions): Promise<LoadResult> {
  const args = ['-url', o.url, '-c', String(o.concurrency), '-d', `${o.seconds}s`, '-warmup', `${o.warmupSeconds ?? 0}s`, `-keepalive=${o.keepAlive ?? true}`];
  if (o.proxy) args.push('-proxy', o.proxy);
  if (o.caFiles?.length) args.push('-cacert', o.caFiles.join(','));
  if (o.expectBytes !== undefined) args.push('-expect', String(o.expectBytes));
  const r = await run(bin, args, { env: { ...process.env, GOMAXPROCS: String(o.procs ?? loadgenProcs()) }, timeoutMs: ((o.seconds + (o.warmupSeconds ?? 0)) * 1000) + 120_000 });
  if (r.code !== 0) throw new Error(`loadgen failed (${r.code}): ${r.stderr.trim()}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as LoadResult;
}

// ---------------------------------------------------------------------------------------
// Processes under test

/** CPU seconds (user + system) and resident memory (MB) of a process, from /proc; null when it is gone. */
export function processUsage(pid: number): { cpuSeconds: number; rssMb: number; peakMb: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { cpuSeconds: ticks / 100, rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

export interface ProxyUnderTest {
  name: string;
  /** http://[user:pass@]127.0.0.1:port */
  url: string;
  pid: number;
  /** PEM files the client must trust for HTTPS through this proxy (its CA when it intercepts). */
  caFiles: string[];
  /** True when it terminates TLS (intercepts), false when it tunnels CONNECT. */
  intercepts: boolean;
  version?: string;
  /** Something a reader of the figures should know (a setting the bench could not turn off). */
  note?: string;
  /** Its Prometheus metrics (crawlhub's /metrics on the proxy port), with the header they need. */
  metrics?: { url: string; headers: Record<string, string> };
  stop(): Promise<void>;
}

function drain(child: ChildProcess): () => string {
  let tail = '';
  const keep = (d: Buffer) => {
    tail = (tail + d.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * The bare library as a proxy of its own: http-mitm-proxy 1.1.0 with keep-alive on both
 * sides (its default is off), intercepting every CONNECT, trusting the origin's
 * certificate upstream (verification on), in its own Node process.
 */
const BARE_MITM = `
const { Proxy } = require('http-mitm-proxy');
const http = require('node:http');
const https = require('node:https');
const fs = require('node:fs');
const [port, caDir, originCert] = process.argv.slice(1);
const proxy = new Proxy();
let errors = 0;
proxy.onError(() => { errors++; });
console.debug = () => {};
proxy.listen({
  host: '127.0.0.1', port: Number(port), keepAlive: true, sslCaDir: caDir,
  httpAgent: new http.Agent({ keepAlive: true }),
  httpsAgent: new https.Agent({ keepAlive: true, ca: originCert ? fs.readFileSync(originCert) : undefined }),
}, (err) => {
  if (err) { console.error(err); process.exit(1); }
  process.stdout.write('listening\\n');
});
process.on('SIGTERM', () => { proxy.close(); process.exit(0); });
`;

export async function startBareMitm(originCertFile?: string): Promise<ProxyUnderTest> {
  const root = repoRoot();
  const caDir = mkdtempSync(join(tmpdir(), 'crawlhub-bench-mitm-ca-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_MITM, String(port), caDir, originCertFile ?? ''], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = drain(child);
  const up = await new Promise<boolean>((resolve) => {
    const onData = (d: Buffer) => {
      if (d.toString().includes('listening')) {
        child.stdout!.off('data', onData);
        resolve(true);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => resolve(false));
  });
  if (!up) throw new Error(`bare http-mitm-proxy did not start: ${tail()}`);
  const version = JSON.parse(readFileSync(join(root, 'node_modules', 'http-mitm-proxy', 'package.json'), 'utf8')).version as string;
  return {
    name: 'bare http-mitm-proxy',
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    caFiles: [join(caDir, 'certs', 'ca.pem')],
    intercepts: true,
    version: `http-mitm-proxy ${version}, keepAlive on`,
    stop: async () => {
      await stopChild(child);
      rmSync(caDir, { recursive: true, force: true });
    },
  };
}

/**
 * squid or tinyproxy from Debian through test/infra/<name>.sh (installed once with apt-get
 * when missing, unless install is false). Returns why it is skipped when it cannot run here.
 */
export async function startDebianProxy(name: 'squid' | 'tinyproxy', options: { install?: boolean } = {}): Promise<ProxyUnderTest | { skipped: string }> {
  const script = join(repoRoot(), 'test', 'infra', `${name}.sh`);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, [`${name.toUpperCase()}_PORT`]: String(port) };
  if (options.install === false) env.CRAWLHUB_NO_APT = '1';
  const start = await run('bash', [script, 'start'], { env, timeoutMs: 900_000 });
  if (start.code !== 0) {
    const why = start.stdout.match(/^skipped: (.*)$/m)?.[1] ?? `${name}.sh start failed (${start.code}): ${(start.stderr || start.stdout).trim().split('\n').slice(-3).join(' | ')}`;
    return { skipped: why };
  }
  const status = await run('bash', [script, 'status'], { env });
  const pid = Number(/running \(pid (\d+)\)/.exec(status.stdout)?.[1] ?? 0);
  const version = /started (.*?) on /.exec(start.stderr)?.[1];
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    pid,
    caFiles: [],
    intercepts: false,
    version,
    stop: async () => {
      await run('bash', [script, 'stop'], { env });
    },
  };
}

export const BENCH_PROXY_KEY = 'bench-admin-key-000000000001';

/**
 * crawlhub's proxy as a fleet deploys it (docker/compose.yaml): the built platform
 * (dist/apps/all/main.js) with APP_ROLE=proxy in a process of its own, and beside it a
 * second process with APP_ROLE=projector on the same DATA_DIR that builds the views the
 * proxy reads (sessions, usage). The proxy authenticates the admin key CRAWLHUB_ADMIN_KEY
 * from its environment. BENCH_PROXY_ROLES sets the proxy process's roles instead (no
 * projector process then when they include projector). ALLOW_PRIVATE_TARGETS=true (the
 * origin is on loopback), the origin's certificate trusted upstream, and the settings below
 * that keep throttling and limits out of the way. Returns why it is skipped while the proxy
 * role is not built.
 */
export async function startCrawlhubProxy(originCertFile: string, extraEnv: Record<string, string> = {}): Promise<ProxyUnderTest | { skipped: string }> {
  const root = repoRoot();
  const main = join(root, 'dist', 'apps', 'all', 'main.js');
  if (!existsSync(main)) return { skipped: 'not built (no dist/apps/all/main.js: npm run build)' };
  if (!existsSync(join(root, 'dist', 'apps', 'proxy'))) return { skipped: 'not built yet' };
  const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-bench-proxy-'));
  const [proxyPort, statsPort, storagePort, dashPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const roles = process.env.BENCH_PROXY_ROLES ?? 'proxy';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    APP_ROLE: roles,
    PROXY_PORT: String(proxyPort),
    STATS_PORT: String(statsPort),
    STORAGE_PORT: String(storagePort),
    DASH_PORT: String(dashPort),
    CRAWLHUB_ADMIN_KEY: BENCH_PROXY_KEY,
    ALLOW_PRIVATE_TARGETS: 'true',
    PROXY_UPSTREAM_CA_FILE: originCertFile,
    PROXY_MAX_CONNS_PER_KEY: '100000',
    PROXY_MAX_OUTSTANDING: '1000000',
    // The young generation and heap growth the proxy service of docker/compose.yaml runs with.
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${PROXY_NODE_OPTIONS}`.trim(),
    HEAP_GROWING_PERCENT: PROXY_HEAP_GROWING_PERCENT,
    ...BENCH_PROXY_SETTINGS,
    ...settingsOf(process.env.BENCH_PROXY_ENV ?? ''),
    ...extraEnv,
  };
  const started: ChildProcess[] = [];
  const cleanup = async () => {
    for (const child of started.reverse()) await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  /** Starts one platform process; its output's tail, or why it did not come up. */
  const startProcess = async (processEnv: NodeJS.ProcessEnv): Promise<{ tail: () => string } | { failed: string }> => {
    const child = spawn(process.execPath, [main], { cwd: root, env: processEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    const tail = drain(child);
    const up = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 60_000);
      child.stdout!.on('data', () => {
        if (tail().includes('crawlhub is up')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('exit', () => resolve(false));
    });
    return up ? { tail } : { failed: `the platform (APP_ROLE=${processEnv.APP_ROLE}) did not start: ${tail().trim().split('\n').slice(-5).join(' | ')}` };
  };
  const projectorBeside = !roles.split(',').includes('projector');
  if (projectorBeside) {
    const projector = await startProcess({ ...env, APP_ROLE: 'projector', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '' });
    if ('failed' in projector) {
      await cleanup();
      return { skipped: projector.failed };
    }
  }
  const proxyProcess = await startProcess(env);
  if ('failed' in proxyProcess) {
    await cleanup();
    return { skipped: proxyProcess.failed };
  }
  const child = started[started.length - 1];
  const tail = proxyProcess.tail;
  await new Promise((r) => setTimeout(r, 300));
  if (/roles not built yet in this version:.*\bproxy\b/.test(tail())) {
    await cleanup();
    return { skipped: 'not built yet' };
  }
  if (!(await waitForPort(proxyPort, 10_000))) {
    const out = tail();
    await cleanup();
    return { skipped: `not listening on PROXY_PORT ${proxyPort} 10 s after start: ${out.trim().split('\n').slice(-5).join(' | ')}` };
  }
  // The CA, for HTTPS through the proxy; without it the HTTPS cells are skipped.
  const caFiles: string[] = [];
  const adminAuth = { authorization: `Basic ${Buffer.from(`${BENCH_PROXY_KEY}:`).toString('base64')}` };
  const ca = await httpGet(`http://127.0.0.1:${proxyPort}/ca.crt`, adminAuth).catch((e: Error) => ({ status: 0, body: Buffer.from(e.message) }));
  if (ca.status === 200 && ca.body.includes('BEGIN CERTIFICATE')) {
    const caFile = join(dataDir, 'bench-ca.crt');
    writeFileSync(caFile, ca.body);
    caFiles.push(caFile);
  }
  // Throttling spaces requests to one domain by seconds: a throughput bench must turn it
  // off. Say so when the platform has such a setting that the bench does not set.
  return {
    name: 'crawlhub proxy',
    note: env.PROXY_THROTTLE_SPACING_MS !== '0' ? `throttling is on (PROXY_THROTTLE_SPACING_MS=${env.PROXY_THROTTLE_SPACING_MS}): requests to the origin wait for their slots` : undefined,
    url: `http://${BENCH_PROXY_KEY}:@127.0.0.1:${proxyPort}`,
    pid: child.pid!,
    metrics: { url: `http://127.0.0.1:${proxyPort}/metrics`, headers: adminAuth },
    caFiles,
    intercepts: true,
    version: `APP_ROLE=${roles}${projectorBeside ? ' (APP_ROLE=projector in a process beside it)' : ''}`,
    stop: cleanup,
  };
}

/**
 * Node's options of the proxy process as docker/compose.yaml sets them: semi-spaces of 4 MB
 * (Node's default is 16 MB: a young generation of 8 MB instead of 32; see docs/proxy.md,
 * issue 20, third step).
 */
export const PROXY_NODE_OPTIONS = '--max-semi-space-size=4';

/** HEAP_GROWING_PERCENT of the proxy service in docker/compose.yaml (docs/proxy.md "Memory"). */
export const PROXY_HEAP_GROWING_PERCENT = '30';

/** Settings of crawlhub's proxy that a throughput bench turns off (throttling spaces requests to one domain by seconds). */
export const BENCH_PROXY_SETTINGS: Record<string, string> = { PROXY_THROTTLE_SPACING_MS: '0' };

/** `NAME=value,NAME=value` (BENCH_PROXY_ENV: more settings for crawlhub's platform) as an object. */
function settingsOf(list: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq > 0) out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

export function httpGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}
