import { createServer, IncomingMessage, Server } from 'node:http';
import { AccessService } from '@crawlhub/access';
import {
  ACCESS_KEYS_TOPIC, ACTIVITY_TOPIC, COLLECTIONS_TOPIC, COMMENTS_TOPIC, DEPLOYS_TOPIC, FRONTIER_TOPIC, JOB_DATA_TOPIC, JOB_METADATA_TOPIC, JOBS_TOPIC,
  PROXY_SESSIONS_TOPIC, PROXY_USAGE_TOPIC, SCHEDULES_TOPIC, SPIDER_COMMANDS_TOPIC,
} from '@crawlhub/contracts';
import { credentialsOf } from '@crawlhub/http';
import { OpsEndpoints, projectorLag, Readiness } from '@crawlhub/ops';
import type { Core } from './core.types';

/**
 * The topics the projector applies to the views (apps/projector; a spec checks that this
 * list is the projector's): the views are caught up when these are.
 */
export const PROJECTED_TOPICS = [
  ACCESS_KEYS_TOPIC, ACTIVITY_TOPIC, COLLECTIONS_TOPIC, COMMENTS_TOPIC, DEPLOYS_TOPIC, FRONTIER_TOPIC, JOB_DATA_TOPIC, JOB_METADATA_TOPIC, JOBS_TOPIC,
  PROXY_SESSIONS_TOPIC, PROXY_USAGE_TOPIC, SCHEDULES_TOPIC, SPIDER_COMMANDS_TOPIC,
].sort();

interface PartitionLag {
  topic: string;
  partition: number;
  lag: number;
}

/** Reads are shared by the probes and scrapes of one second: a busy prober costs one read a second. */
const CACHE_MS = 1000;

/**
 * How far the views are behind the log, per projected partition: the log's end offsets
 * (a read of the log) against the views' checkpoints (reads of the view store). Both
 * stores answer within READY_TIMEOUT_MS or the read fails: an unreachable server is not
 * waited for.
 */
const lagOfCore = new WeakMap<Core, { read: () => Promise<PartitionLag[]>; unlist: () => void }>();

/** The views' lag of a Core (read as below), also shown as crawlhub_projector_lag_events until `forgetViewLag`. */
function viewLagOf(core: Core): () => Promise<PartitionLag[]> {
  let lag = lagOfCore.get(core);
  if (lag === undefined) {
    const read = viewLagReader(core);
    const unlist = projectorLag.add(async () => (await read()).map(({ topic, partition, lag: value }) => ({ labels: { topic, partition }, value })));
    lag = { read, unlist };
    lagOfCore.set(core, lag);
  }
  return lag.read;
}

/** Called when a Core closes: its stores are gone, its lag leaves /metrics. */
export function forgetViewLag(core: Core): void {
  lagOfCore.get(core)?.unlist();
  lagOfCore.delete(core);
}

function viewLagReader(core: Core): () => Promise<PartitionLag[]> {
  let cached: { at: number; lag: Promise<PartitionLag[]> } | null = null;
  const read = async (): Promise<PartitionLag[]> => {
    const [checkpoints, ...ends] = await Promise.all([core.projections.allCheckpoints(), ...PROJECTED_TOPICS.map((topic) => core.eventLog.endOffsets(topic))]);
    return PROJECTED_TOPICS.flatMap((topic, i) => ends[i].map((end, partition) => ({ topic, partition, lag: Math.max(0, end - (checkpoints.get(`${topic}:${partition}`) ?? 0)) })));
  };
  return () => {
    if (cached === null || performance.now() - cached.at > CACHE_MS) {
      const lag = withTimeout(read(), core.config.ops.readyTimeoutMs, `the event log or the view store did not answer within ${core.config.ops.readyTimeoutMs} ms`);
      cached = { at: performance.now(), lag };
      lag.catch(() => (cached = null));
    }
    return cached.lag;
  };
}

const opsOfCore = new WeakMap<Core, { endpoints: OpsEndpoints; access: { service: AccessService | null } }>();

/** The Cores of processes that are shutting down: their /readyz fails from then on. */
const draining = new WeakSet<Core>();

/**
 * The process is shutting down (SIGTERM): /readyz answers 503 `shutting down` on every port
 * from now on, so load balancers stop sending it new work while it still serves.
 */
export function startDraining(core: Core): void {
  draining.add(core);
}

/**
 * The ops endpoints of a process (OpsEndpoints, libs/ops): one per Core, shared by its
 * ports. `access` authenticates keys for /metrics (the first port that has an
 * AccessService lends it); without one, only METRICS_PUBLIC opens /metrics on the API ports.
 */
export function opsEndpointsOf(core: Core, access: AccessService | null = null): OpsEndpoints {
  let ops = opsOfCore.get(core);
  if (ops === undefined) {
    const lagOf = viewLagOf(core);
    const holder = { service: access };
    const endpoints = new OpsEndpoints({
      readiness: async () => (draining.has(core) ? { ready: false, reason: 'shutting down' } : readinessOf(lagOf, core.config.ops.readyMaxLag)),
      mayReadMetrics: async (req) => core.config.ops.metricsPublic || (await isAdmin(holder.service, req)),
    });
    ops = { endpoints, access: holder };
    opsOfCore.set(core, ops);
  }
  if (access !== null && ops.access.service === null) ops.access.service = access;
  return ops.endpoints;
}

async function readinessOf(lagOf: () => Promise<PartitionLag[]>, maxLag: number): Promise<Readiness> {
  try {
    const behind = (await lagOf()).reduce((sum, p) => sum + p.lag, 0);
    return behind <= maxLag ? { ready: true } : { ready: false, reason: `the views are ${behind} events behind the log (READY_MAX_LAG ${maxLag})` };
  } catch (e) {
    return { ready: false, reason: (e as Error).message };
  }
}

async function isAdmin(access: AccessService | null, req: IncomingMessage): Promise<boolean> {
  const key = credentialsOf(req.headers, {})?.user;
  if (access === null || key === undefined) return false;
  const principal = await access.authenticate(key).catch(() => null);
  return principal !== null && principal.admin && principal.job === undefined;
}

/**
 * OPS_PORT: /healthz, /readyz and /metrics on a port of their own, for the roles without
 * an HTTP port (projector, runner, worker) and for scrapers kept off the API ports. Its
 * metrics need no key: it listens on OPS_HOST, loopback unless configured otherwise.
 */
export async function startOpsServer(core: Core): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const ops = opsEndpointsOf(core);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://ops.invalid').pathname;
    if (!OpsEndpoints.handles(path)) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end('not found: this port serves /healthz, /readyz and /metrics\n');
    }
    ops.answer(req, res, path, { metricsNeedKey: false }).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(core.config.ops.port ?? 0, core.config.ops.host, resolve));
  return {
    server,
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
