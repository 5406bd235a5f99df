import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../support/cli';
import { freePort, spawnPlatform, SpawnedPlatform } from '../../support/spawn-platform';

/**
 * The one platform the hostile suite attacks: the built `npm start` (every role but the
 * runner) as a child process on the embedded default (SQLite), so that a request that ends
 * the process is seen as such and the suite goes on after a restart. ALLOW_PRIVATE_TARGETS
 * is removed from its environment: the SSRF cases meet the guard as a fresh install has it.
 */

export type ApiName = 'storage' | 'dash' | 'fetch' | 'extraction' | 'proxy' | 'stats';

export interface KeyInfo {
  id: string;
  secret: string;
}

export interface HostilePlatform {
  ports: Record<ApiName, number>;
  adminKey: string;
  /** Bound to project 1, with the `browser` and `extraction` capabilities. */
  p1: KeyInfo;
  /** Bound to project 2 only, no capabilities: the other tenant. */
  p2: KeyInfo;
  /** The proxy's CA certificate (PEM). */
  ca(): string;
  canary: Canary;
  /** Whether the child process has exited since it was (re)started. */
  exited(): boolean;
  /** Its output since the last (re)start. */
  output(): string;
  /** Starts it again on the same data and ports (after a case ended the process). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Where a request that gets past the SSRF guard ends up, so that a hole shows as a hit
 * instead of a connection somewhere: an HTTP server on 127.0.0.1 and [::1] (same port),
 * the target port of every SSRF spelling, and a loopback upstream proxy that is the
 * platform's only exit (`PROXY_EXITS`), so nothing the proxy forwards can leave the
 * machine whatever a case makes the guard believe.
 */
export interface Canary {
  /** The loopback service's port (on 127.0.0.1 and ::1). */
  port: number;
  /** The upstream proxy's port (127.0.0.1). */
  exitPort: number;
  hits: string[];
  close(): Promise<void>;
}

async function listenBoth(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ port: number; servers: Server[] }> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const servers: Server[] = [];
    try {
      for (const host of ['127.0.0.1', '::1']) {
        const s = createServer(handler);
        await new Promise<void>((resolve, reject) => s.once('error', reject).listen(port, host, () => resolve()));
        servers.push(s);
      }
      return { port, servers };
    } catch (e) {
      for (const s of servers) s.close();
      if (attempt === 5) throw e;
    }
  }
}

async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const service = await listenBoth((req, res) => {
    hits.push(`the loopback service got ${req.method} ${req.url} on ${req.socket.localAddress}`);
    res.end('canary: an internal service nobody outside may reach\n');
  });
  const exit = createServer((req, res) => {
    hits.push(`the proxy forwarded ${req.method} ${req.url} to its exit`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('canary exit: the proxy let this through\n');
  });
  exit.on('connect', (req: IncomingMessage, socket: Duplex) => {
    hits.push(`the proxy forwarded CONNECT ${req.url} to its exit`);
    socket.end('HTTP/1.1 502 Canary Exit\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((r) => exit.listen(0, '127.0.0.1', () => r()));
  const servers = [...service.servers, exit];
  return {
    port: service.port,
    exitPort: (exit.address() as AddressInfo).port,
    hits,
    close: async () => {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    },
  };
}

const ROLES = 'storage,dash,projector,proxy,stats,fetch,extract,worker';
const ADMIN_KEY = 'hostile-suite-admin-key-000000001';

async function createKey(dataDir: string, args: string[]): Promise<KeyInfo> {
  const { code, out } = await cli(dataDir, ['keys', 'create', ...args]);
  const m = /^created (key-[0-9a-f]{12}) [^\n]*:\n([0-9a-f]{32})\n$/.exec(out);
  if (code !== 0 || !m) throw new Error(`crawlhub keys create ${args.join(' ')} failed (${code}):\n${out}`);
  return { id: m[1], secret: m[2] };
}

export async function startHostilePlatform(): Promise<HostilePlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-hostile-'));
  let canary: Canary | null = null;
  try {
    canary = await startCanary();
    return await startOn(dataDir, canary);
  } catch (e) {
    await canary?.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
}

async function startOn(dataDir: string, canary: Canary): Promise<HostilePlatform> {
  const p1 = await createKey(dataDir, ['--project', '1', '--grant', 'browser', '--grant', 'extraction']);
  const p2 = await createKey(dataDir, ['--project', '2']);
  const ports = {} as Record<ApiName, number>;
  for (const api of ['storage', 'dash', 'fetch', 'extraction', 'proxy', 'stats'] as ApiName[]) ports[api] = await freePort();
  const env: NodeJS.ProcessEnv = {
    DATA_DIR: dataDir,
    EVENT_LOG: 'sqlite',
    VIEW_STORE: 'sqlite',
    EVENT_LOG_NAMESPACE: `hostile${Date.now().toString(36)}-`,
    CRAWLHUB_ADMIN_KEY: ADMIN_KEY,
    ALLOW_PRIVATE_TARGETS: undefined, // unset: the default guard (child_process drops undefined values)
    STORAGE_PORT: String(ports.storage),
    DASH_PORT: String(ports.dash),
    FETCH_PORT: String(ports.fetch),
    EXTRACT_PORT: String(ports.extraction),
    PROXY_PORT: String(ports.proxy),
    STATS_PORT: String(ports.stats),
    // Bounds on how long a case can keep the suite waiting: a fetch or an extraction query
    // that nothing answers is over in 10 or 5 s instead of 1 or 10 minutes.
    FETCH_DEADLINE_MS: '10000',
    EXTRACT_QUERY_TIMEOUT_MS: '5000',
    PROXY_THROTTLE_SPACING_MS: '0',
    PROXY_EXITS: `http://127.0.0.1:${canary.exitPort}`,
    READ_YOUR_WRITES_TIMEOUT_MS: '10000',
    LOG_LEVEL: 'warn',
  };
  let child: SpawnedPlatform = await spawnPlatform({ env, roles: ROLES, name: 'hostile platform' });
  return {
    ports,
    adminKey: ADMIN_KEY,
    p1,
    p2,
    ca: () => readFileSync(join(dataDir, 'proxy-ca', 'certs', 'ca.pem'), 'utf8'),
    canary,
    exited: () => child.exited(),
    output: () => child.output(),
    restart: async () => {
      await child.stop('SIGKILL');
      child = await spawnPlatform({ env, roles: ROLES, name: 'hostile platform (restarted)' });
    },
    stop: async () => {
      await child.stop('SIGTERM', 10_000);
      await canary.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
