import type { EventLog } from '@crawlhub/eventlog';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { TestPlatform } from './platform';
import { SpawnedPlatform, spawnPlatform } from './spawn-platform';

/** Worker i's exit: the source address the origin sees for its fetches. */
export const FLEET_EXITS = ['127.0.0.2', '127.0.0.3'];

export interface WorkerFleet {
  /** Worker i fetches through a proxy of its own, leaving by FLEET_EXITS[i]. */
  workers: SpawnedPlatform[];
  stop(): Promise<void>;
}

/**
 * Two worker processes (the built platform, APP_ROLE=worker: `npm run build` first) in one
 * consumer group on the test platform's log (its SQLite file, or its Kafka topics), each
 * fetching through a proxy of its own in this process with an exit of its own, so the
 * origin tells which worker fetched what. `env` says which work they take.
 */
export async function startWorkerFleet(platform: TestPlatform, names: [string, string], env: Record<string, string>): Promise<WorkerFleet> {
  const proxies: StartedProxy[] = [];
  const workers: SpawnedPlatform[] = [];
  const stop = async () => {
    for (const w of workers) await w.stop('SIGTERM', 10_000);
    for (const p of proxies) await p.close();
  };
  try {
    for (const exit of FLEET_EXITS) {
      const config = { ...platform.core.config, proxy: { ...platform.core.config.proxy, exits: [{ kind: 'local' as const, localAddress: exit }] } };
      proxies.push(await startProxyApp({ ...platform.core, config }, ['error']));
    }
    const config = platform.core.config;
    const shared = {
      DATA_DIR: config.dataDir,
      EVENT_LOG_NAMESPACE: config.eventLog.namespace,
      MONGODB_DATABASE: config.viewStore.kind === 'mongodb' ? config.viewStore.database : '',
      CRAWLHUB_ADMIN_KEY: '',
      LOG_LEVEL: 'error',
      ...env,
    };
    for (const [i, name] of names.entries()) workers.push(await spawnPlatform({ env: { ...shared, WORKER_PROXY_URL: `http://127.0.0.1:${proxies[i].port}/` }, roles: 'worker', name }));
  } catch (e) {
    await stop();
    throw e;
  }
  return { workers, stop };
}

/** The data of every `type` event in `topic` so far. */
export async function loggedEvents<T>(log: EventLog, topic: string, type: string): Promise<T[]> {
  const out: T[] = [];
  for (let p = 0; p < log.partitionCount(topic); p++) {
    for (let from = 0; ; ) {
      const events = await log.read(topic, p, from, 1000);
      if (events.length === 0) break;
      for (const e of events) if (e.event.type === type) out.push(e.event.data as T);
      from = events[events.length - 1].offset + 1;
    }
  }
  return out;
}
