import { readFileSync } from 'node:fs';
import { APP_ROLES, WORKER_KINDS } from '@crawlhub/config';
import { DOCKERFILE, listenPorts, readCompose, roleServices } from '../support/compose';

/**
 * docker/compose.yaml and docker/Dockerfile, read (no Docker engine needed): every role has
 * a service built from an image that holds what it needs, with a health check on a port it
 * serves, resource hints, and addresses of other services that exist. The fleet test
 * (fleet-compose.test.ts) then starts these services as processes.
 */
describe('docker/compose.yaml', () => {
  const services = readCompose({ CRAWLHUB_ADMIN_KEY: 'compose-check-admin-key', JOB_TOKEN_SECRET: 'compose-check-secret' });
  // loadConfig throws on any invalid setting: every service's environment is a valid configuration.
  const crawlhub = roleServices(services);

  /** The Dockerfile's stages: name -> its lines. */
  const stages = new Map<string, string>();
  for (const stage of readFileSync(DOCKERFILE, 'utf8').split(/^(?=FROM )/m).slice(1)) stages.set(/^FROM \S+ AS (\S+)/.exec(stage)![1], stage);
  const installs = (target: string): string[] => {
    const stage = stages.get(target)!;
    const inherited = /^FROM (\S+)/.exec(stage)![1];
    const own = [...stage.matchAll(/apt-get install[^&]*?--no-install-recommends ([^&]+)&&/g)].flatMap((m) => m[1].trim().split(/\s+/));
    return stages.has(inherited) ? [...installs(inherited), ...own] : own;
  };

  it('has one service per role, and one per kind of worker', () => {
    const single = (role: string) => crawlhub.filter((s) => s.roles.length === 1 && s.roles[0] === role);
    for (const role of APP_ROLES.filter((r) => r !== 'worker')) expect([role, single(role).length]).toEqual([role, 1]);
    for (const kind of WORKER_KINDS) {
      expect([kind, single('worker').filter((s) => s.config.worker.kinds.join() === kind).length]).toEqual([kind, 1]);
    }
  });

  it('checks the health of every crawlhub service on a port it serves, and gives each resource limits', () => {
    for (const s of crawlhub) {
      expect([s.name, s.healthcheck?.test?.slice(0, 3)]).toEqual([s.name, ['CMD', 'node', 'healthcheck.js']]);
      expect([s.name, listenPorts(s.config)]).toEqual([s.name, expect.arrayContaining([s.healthPort])]);
      expect([s.name, s.deploy?.resources?.limits]).toEqual([s.name, { cpus: expect.any(String), memory: expect.any(String) }]);
    }
  });

  it('addresses only services that exist, on ports they serve', () => {
    const byName = new Map(crawlhub.map((s) => [s.name, s]));
    for (const s of crawlhub) {
      for (const [name, value] of Object.entries(s.environment)) {
        for (const [, host, port] of value.matchAll(/https?:\/\/([a-z-]+):(\d+)/g)) {
          expect([s.name, name, listenPorts(byName.get(host)?.config ?? s.config).includes(Number(port)) && byName.has(host)]).toEqual([s.name, name, true]);
        }
      }
    }
  });

  it('builds each role from an image that holds what it needs and nothing more, run by an unprivileged user', () => {
    const targetOf = (s: { build?: { target?: string } }) => s.build?.target ?? '';
    for (const s of crawlhub) expect([s.name, stages.has(targetOf(s))]).toEqual([s.name, true]);
    const kinds = (s: (typeof crawlhub)[number]) => (s.roles.includes('worker') ? s.config.worker.kinds : []);
    for (const s of crawlhub) {
      const packages = installs(targetOf(s));
      if (s.roles.includes('runner')) expect(packages).toEqual(expect.arrayContaining(['python3', 'python3-venv']));
      else if (kinds(s).includes('render')) expect(packages).toEqual(expect.arrayContaining(['chromium-headless-shell', 'tini']));
      else expect([s.name, packages]).toEqual([s.name, []]);
    }
    // Renderers start under tini (it reaps what closed browsers leave); every image ends as `node`.
    expect(stages.get('render')).toMatch(/ENTRYPOINT \["\/usr\/bin\/tini", "-s", "--"/);
    for (const target of new Set(crawlhub.map(targetOf))) {
      const users = [...stages.get(target)!.matchAll(/^USER (\S+)/gm)].map((m) => m[1]);
      expect([target, users.at(-1)]).toEqual([target, 'node']);
    }
  });
});
