import { request } from 'node:http';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, Server, Socket } from 'node:net';
import { AppRole } from '@crawlhub/config';
import { readCompose, RoleService, roleServices } from './compose';
import { freePort, SpawnedPlatform, spawnPlatform } from './spawn-platform';

/** The setting that moves each role's port (OPS_PORT moves the ops port). */
const PORT_SETTING: Partial<Record<AppRole, string>> = {
  dash: 'DASH_PORT',
  storage: 'STORAGE_PORT',
  fetch: 'FETCH_PORT',
  extract: 'EXTRACT_PORT',
  proxy: 'PROXY_PORT',
  stats: 'STATS_PORT',
};

/**
 * A service name as the other containers reach it: a port on loopback that spreads the
 * connections over the service's replicas, round robin, as a TCP load balancer in front of
 * them would: it sends new connections only to replicas whose /readyz answered 200 at its
 * last probe (every PROBE_MS; all of them when none did), and tries the next replica when
 * one refuses. A connection that was made is only piped: when its replica dies, it is cut.
 */
export class ServiceAddress {
  /** Connections that went to another replica because the first one picked refused. */
  failovers = 0;
  private next = 0;
  private readonly sockets = new Set<Socket>();
  /** Whether each backend answered its last readiness probe with 200. */
  private readonly ready: boolean[];
  private readonly prober: NodeJS.Timeout;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly backends: number[],
  ) {
    this.ready = backends.map(() => true);
    this.prober = setInterval(() => backends.forEach((b, i) => void probeReady(b).then((ok) => (this.ready[i] = ok))), PROBE_MS);
  }

  static async start(backends: number[]): Promise<ServiceAddress> {
    const server = createServer({ pauseOnConnect: true });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = new ServiceAddress(server, (server.address() as { port: number }).port, backends);
    server.on('connection', (client) => address.route(client));
    return address;
  }

  private route(client: Socket, refused = 0): void {
    const ready = this.backends.filter((_, i) => this.ready[i]);
    const candidates = ready.length > 0 ? ready : this.backends;
    const port = candidates[this.next++ % candidates.length];
    const upstream = connect(port, '127.0.0.1');
    this.sockets.add(client).add(upstream);
    const forget = () => this.sockets.delete(client) && this.sockets.delete(upstream);
    upstream.once('error', () => {
      if (upstream.connecting || !upstream.remoteAddress) {
        // Refused: every replica once, then again after a pause (all of them restarting).
        this.failovers++;
        forget();
        if (client.destroyed) return;
        if ((refused + 1) % this.backends.length === 0) setTimeout(() => this.route(client, refused + 1), 100);
        else this.route(client, refused + 1);
      } else client.destroy();
    });
    upstream.once('connect', () => {
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => {
        client.destroy();
        forget();
      });
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  close(): Promise<void> {
    clearInterval(this.prober);
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A process's start on this shared machine (20 processes start at once) and its first readiness. */
const START_TIMEOUT_MS = 300_000;

/** How often a service address probes the readiness of its replicas. */
const PROBE_MS = 250;

/** Whether GET /readyz on a port answers 200 (within a second). */
function probeReady(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/readyz', agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/** One process of a service: its ports, and the process while it runs. */
export interface Replica {
  service: FleetService;
  index: number;
  env: Record<string, string>;
  /** The port its health check asks (its API port, the proxy's, or OPS_PORT). */
  healthPort: number;
  process: SpawnedPlatform | null;
}

export interface FleetService extends RoleService {
  replicas: Replica[];
}

export interface FleetOptions {
  /** Replicas per service (default 1). */
  replicas(service: RoleService): number;
  /** Settings on top of each service's environment (the test's: loopback targets, shorter timeouts). */
  env: Record<string, string>;
  /** A name unique to this run: its topics (EVENT_LOG_NAMESPACE) and database. */
  unique: string;
  kafkaBrokers: string;
  mongodbUri: string;
  adminKey: string;
}

/**
 * docker/compose.yaml as local processes: every crawlhub service, `replicas(service)` times,
 * each process with the service's environment (APP_ROLE and all) and the replacements a
 * container host would make: service names become loopback ServiceAddresses, `kafka` and
 * `mongodb` the servers given, named volumes directories shared by the replicas, and each
 * replica gets ports and a data directory (its container's /data) of its own.
 */
export class Fleet {
  readonly services: FleetService[];
  private readonly starting = new Set<Promise<SpawnedPlatform>>();
  private constructor(
    services: FleetService[],
    private readonly addresses: Map<string, ServiceAddress>,
  ) {
    this.services = services;
  }

  static async create(options: FleetOptions): Promise<Fleet> {
    const root = mkdtempSync(join(tmpdir(), 'fleet-'));
    const composed = roleServices(readCompose({ CRAWLHUB_ADMIN_KEY: options.adminKey, JOB_TOKEN_SECRET: `secret-${options.unique}` }));
    const services: FleetService[] = composed.map((s) => ({ ...s, replicas: [] }));
    // Every replica's ports first: the service addresses forward to them.
    const ports = new Map<FleetService, { setting: string; compose: number; own: number[] }[]>();
    for (const s of services) {
      const n = options.replicas(s);
      const settings = [...s.roles.flatMap((r) => (PORT_SETTING[r] ? [{ setting: PORT_SETTING[r]!, compose: portOf(s, r) }] : [])), ...(s.config.ops.port === null ? [] : [{ setting: 'OPS_PORT', compose: s.config.ops.port }])];
      ports.set(s, await Promise.all(settings.map(async (p) => ({ ...p, own: await Promise.all(Array.from({ length: n }, () => freePort())) }))));
    }
    const addresses = new Map<string, ServiceAddress>();
    for (const s of services) for (const p of ports.get(s)!) addresses.set(`${s.name}:${p.compose}`, await ServiceAddress.start(p.own));
    const volumes = new Map<string, string>();
    for (const s of services) {
      for (let i = 0; i < options.replicas(s); i++) {
        const env: Record<string, string> = {};
        for (const [name, value] of Object.entries(s.environment)) {
          env[name] = value.replace(/\b([a-z][a-z-]*):(\d+)\b/g, (whole, host: string, port: string) => {
            const address = addresses.get(`${host}:${port}`);
            return address ? `127.0.0.1:${address.port}` : whole;
          });
          for (const mount of s.volumes ?? []) {
            const [volume, path] = mount.split(':');
            if (!volumes.has(volume)) volumes.set(volume, mkdtempSync(join(root, `volume-${volume}-`)));
            if (env[name].startsWith(path)) env[name] = volumes.get(volume)! + env[name].slice(path.length);
          }
        }
        const dataDir = join(root, `${s.name}-${i}`);
        mkdirSync(dataDir);
        Object.assign(env, {
          KAFKA_BROKERS: options.kafkaBrokers,
          MONGODB_URI: options.mongodbUri,
          MONGODB_DATABASE: `crawlhub_${options.unique}`,
          EVENT_LOG_NAMESPACE: `${options.unique}-`,
          DATA_DIR: dataDir,
          HOST: '127.0.0.1',
          ...(s.config.ops.port === null ? {} : { OPS_HOST: '127.0.0.1' }),
          ...options.env,
        });
        for (const p of ports.get(s)!) env[p.setting] = String(p.own[i]);
        const healthPort = ports.get(s)!.find((p) => p.compose === s.healthPort)!.own[i];
        s.replicas.push({ service: s, index: i, env, healthPort, process: null });
      }
    }
    return new Fleet(services, addresses);
  }

  service(name: string): FleetService {
    const s = this.services.find((x) => x.name === name);
    if (!s) throw new Error(`no service ${name} in docker/compose.yaml`);
    return s;
  }

  /** `http://127.0.0.1:<port>` of a service's address (its compose port; default its only one). */
  url(name: string, port?: number): string {
    const s = this.service(name);
    const key = `${name}:${port ?? s.healthPort}`;
    const address = this.addresses.get(key);
    if (!address) throw new Error(`no address ${key}`);
    return `http://127.0.0.1:${address.port}`;
  }

  /** Connections the service addresses moved to another replica (one refused them). */
  failovers(): number {
    return [...this.addresses.values()].reduce((n, a) => n + a.failovers, 0);
  }

  /** Starts a replica and waits until its /readyz answers 200 (`stop` waits for the starts under way). */
  async start(replica: Replica): Promise<void> {
    const name = `${replica.service.name}-${replica.index}`;
    const spawned = spawnPlatform({ env: replica.env, roles: replica.env.APP_ROLE, name, startTimeoutMs: START_TIMEOUT_MS });
    this.starting.add(spawned);
    try {
      replica.process = await spawned;
    } finally {
      this.starting.delete(spawned);
    }
    await waitReady(replica, START_TIMEOUT_MS);
  }

  /** Stops a replica with `signal` (waits for its exit), then starts it again. */
  async restart(replica: Replica, signal: NodeJS.Signals): Promise<void> {
    await replica.process?.stop(signal, 30_000);
    await this.start(replica);
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.starting]);
    await Promise.all(this.services.flatMap((s) => s.replicas.map((r) => r.process?.stop('SIGTERM', 15_000))));
    for (const a of this.addresses.values()) await a.close();
  }
}

function portOf(s: RoleService, role: AppRole): number {
  const ports = s.config.ports as Record<string, number>;
  return ports[role];
}

/** GET /readyz on a replica's own port until 200. */
export async function waitReady(replica: Replica, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    last = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port: replica.healthPort, path: '/readyz', agent: false, timeout: 5000 }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(`${res.statusCode} ${body.trim()}`));
      });
      req.on('error', (e) => resolve(e.message));
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.end();
    });
    if (last.startsWith('200')) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${replica.service.name}-${replica.index} not ready after ${timeoutMs} ms: ${last}\n${replica.process?.output() ?? ''}`);
}
