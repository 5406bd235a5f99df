import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeLoad } from 'js-yaml';
import { AppRole, CrawlhubConfig, loadConfig } from '@crawlhub/config';

/** The fleet's compose file and Dockerfile. */
export const COMPOSE_FILE = join(__dirname, '../../docker/compose.yaml');
export const DOCKERFILE = join(__dirname, '../../docker/Dockerfile');

/** A service of the compose file, as far as the tests read it. */
export interface ComposeService {
  name: string;
  environment: Record<string, string>;
  build?: { target?: string };
  image?: string;
  healthcheck?: { test?: string[] };
  deploy?: { resources?: { limits?: { cpus?: string; memory?: string }; reservations?: object } };
  ports?: string[];
  /** `volume:/path` mounts. */
  volumes?: string[];
}

/** A crawlhub service: one with APP_ROLE, and the configuration its environment gives it. */
export interface RoleService extends ComposeService {
  roles: AppRole[];
  config: CrawlhubConfig;
  /** The port its health check asks. */
  healthPort: number;
}

/**
 * The compose file's services (merge keys resolved), `${VAR}`, `${VAR:-default}` and
 * `${VAR:?message}` taken from `vars` as `docker compose` takes them from docker/.env.
 */
export function readCompose(vars: Record<string, string>): ComposeService[] {
  const text = readFileSync(COMPOSE_FILE, 'utf8').replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
    const value = vars[name];
    if (value !== undefined && value !== '') return value;
    if (op === '-') return arg ?? '';
    throw new Error(`compose.yaml needs ${name}: ${arg ?? 'not set'}`);
  });
  const doc = safeLoad(text) as { services: Record<string, Omit<ComposeService, 'name' | 'environment'> & { environment?: Record<string, unknown> }> };
  return Object.entries(doc.services).map(([name, s]) => ({
    ...s,
    name,
    environment: Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v)])),
  }));
}

/** The services that run crawlhub, each with the configuration it would start with. */
export function roleServices(services: ComposeService[]): RoleService[] {
  return services
    .filter((s) => s.environment.APP_ROLE !== undefined)
    .map((s) => {
      const config = loadConfig(s.environment);
      const test = s.healthcheck?.test ?? [];
      return { ...s, roles: config.roles, config, healthPort: Number(test[test.indexOf('healthcheck.js') + 1]) };
    });
}

/** The ports a process with this configuration listens on for its roles (the API ports, the proxy's, OPS_PORT). */
export function listenPorts(config: CrawlhubConfig): number[] {
  const byRole: Partial<Record<AppRole, number>> = {
    dash: config.ports.dash,
    storage: config.ports.storage,
    fetch: config.ports.fetch,
    extract: config.ports.extract,
    proxy: config.ports.proxy,
    stats: config.ports.stats,
  };
  return [...config.roles.flatMap((r) => (byRole[r] === undefined ? [] : [byRole[r]!])), ...(config.ops.port === null ? [] : [config.ops.port])];
}
