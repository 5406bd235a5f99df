import { INestApplication } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { globalAgent } from 'node:http';
import { AddressInfo } from 'node:net';
import { FETCH_COMPLETED, FETCH_RESULTS_TOPIC, FetchCompleted } from '@crawlhub/contracts';
import { descendantsOf } from '@crawlhub/render';
import { startFetchApp } from '../../apps/fetch/fetch.app';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { ProxyOrigin, startProxyOrigin } from '../support/proxy-origin';
import { describeIf, needs } from '../support/skip';
import { SpawnedPlatform } from '../support/spawn-platform';
import { FLEET_EXITS as EXITS, loggedEvents, startWorkerFleet, WorkerFleet } from '../support/worker-fleet';

/**
 * Each kind of worker, with as many requests in flight as its two processes hold at once
 * (renderers: one kept browser per render slot, started on demand).
 */
const KINDS: { kind: string; render: boolean; n: number; env: Record<string, string> }[] = [
  { kind: 'plain', render: false, n: 16, env: {} },
  { kind: 'render', render: true, n: 6, env: { RENDER_CONCURRENCY: '6' } },
];

/**
 * The worker fleet: two worker processes (the built platform, APP_ROLE=worker) in one
 * consumer group, sharing this process's event log (the SQLite file, or the Kafka
 * topics), each fetching (or rendering: its browsers go through its proxy) through a
 * proxy of its own in this process, with an exit of its own, so the origin tells which
 * worker fetched what. `npm run build` first.
 */
for (const { kind, render, n, env: kindEnv } of KINDS) (render ? describeIf(needs.chromium) : describe)(`fetch API: the worker fleet of ${kind} workers`, () => {
  let platform: TestPlatform;
  let origin: ProxyOrigin;
  let fetchApp: INestApplication;
  let fetchUrl: string;
  let key: string;
  let fleet: WorkerFleet;
  let workers: SpawnedPlatform[];

  async function fetchApi(url: string): Promise<Record<string, unknown>> {
    const res = await fetch(fetchUrl, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basic(key) }, body: JSON.stringify({ url, render }) });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  }

  const results = () => loggedEvents<FetchCompleted>(platform.core.eventLog, FETCH_RESULTS_TOPIC, FETCH_COMPLETED);

  const workerId = (w: SpawnedPlatform) => `:${w.child.pid}`;

  beforeAll(async () => {
    origin = await startProxyOrigin();
    platform = await startTestPlatform({
      PROXY_PORT: '0',
      FETCH_PORT: '0',
      ALLOW_PRIVATE_TARGETS: 'true',
      PROXY_THROTTLE_SPACING_MS: '0',
      // Room for a takeover: on Kafka a killed member's partitions move after its 10 s session timeout.
      FETCH_DEADLINE_MS: '45000',
    });
    key = await platform.createKey([1], ['browser']);
    fetchApp = await startFetchApp(platform.core, ['error']);
    fetchUrl = `http://127.0.0.1:${(fetchApp.getHttpServer().address() as AddressInfo).port}/fetch/v2`;
    // The renderers' browsers check targets themselves before the proxy does.
    fleet = await startWorkerFleet(platform, ['worker-a', 'worker-b'], { ALLOW_PRIVATE_TARGETS: 'true', WORKER_KINDS: kind, WORKER_CONCURRENCY: '16', ...kindEnv });
    workers = fleet.workers;
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop();
    await fetchApp?.close();
    await platform?.stop();
    await origin?.close();
    globalAgent.destroy();
  }, 60_000);

  it('spreads the requests over both workers', async () => {
    const seen = new Set<string>();
    const until = Date.now() + 60_000;
    // Kafka may still be assigning the second member's partitions: waves until both answered.
    while (Date.now() < until && !workers.every((w) => [...seen].some((s) => s.endsWith(workerId(w))))) {
      const answers = await Promise.all(Array.from({ length: n }, (_, i) => fetchApi(`${origin.httpUrl}/status/200?n=${i}`)));
      expect(answers.every((a) => a.proxy_status === 'success' && a.original_status === 200)).toBe(true);
      for (const r of await results()) seen.add(r.worker);
    }
    for (const w of workers) expect([...seen].some((s) => s.endsWith(workerId(w)))).toBe(true);
  }, 90_000);

  it('answers every request when a worker is SIGKILLed while it holds some of them', async () => {
    const slowHits = (exit?: string) => origin.hits.filter((h) => h.path === '/slow' && (exit === undefined || h.remote === exit)).length;
    const answers = Promise.all(Array.from({ length: n }, (_, i) => fetchApi(`${origin.httpUrl}/slow?ms=6000&n=${i}`)));
    // Both workers are fetching now (the origin answers after 6 s): kill one mid-fetch.
    const until = Date.now() + 10_000;
    while (slowHits() < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(slowHits()).toBeGreaterThanOrEqual(n);
    const fetchedBeforeKill = slowHits();
    // The victim: the worker that fetched the latest of them (the origin sees its exit), so it
    // surely holds one unfinished (the origin answers 6 s after each arrival).
    const held = EXITS.map((exit) => slowHits(exit));
    const lastHit = (exit: string) => Math.max(0, ...origin.hits.filter((h) => h.path === '/slow' && h.remote === exit).map((h) => h.at));
    const v = lastHit(EXITS[0]) >= lastHit(EXITS[1]) ? 0 : 1;
    const [victim, survivor] = [workers[v], workers[1 - v]];
    expect(held[v]).toBeGreaterThan(0);
    const victimsChildren = descendantsOf(victim.child.pid!);
    if (render) expect(victimsChildren.length).toBeGreaterThan(0);
    victim.kill('SIGKILL');
    await victim.waitExit();
    const done = await answers;
    expect(done.map((a) => [a.proxy_status, a.original_status])).toEqual(Array(n).fill(['success', 200]));
    const fresh = (await results()).filter((r) => r.url.includes('/slow'));
    const by = (w: SpawnedPlatform) => new Set(fresh.filter((r) => r.worker.endsWith(workerId(w))).map((r) => r.url));
    const [bySurvivor, byVictim] = [by(survivor), by(victim)];
    // The victim held some unfinished when it was killed (on Kafka the first of them may have
    // reached the origin 6 s before the last, and finished).
    expect(byVictim.size).toBeLessThan(held[v]);
    expect(new Set([...bySurvivor, ...byVictim]).size).toBe(n);
    // What it left unfinished, the survivor fetched again, through its own exit.
    expect(slowHits(EXITS[1 - v])).toBeGreaterThanOrEqual(n - byVictim.size);
    expect(slowHits()).toBeGreaterThan(fetchedBeforeKill);
    // Nothing of the victim lives on: its browsers end with it (they hang on its pipe).
    const living = (pid: number) => {
      const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
      return stat !== '' && stat[stat.lastIndexOf(')') + 2] !== 'Z';
    };
    expect(victimsChildren.filter(living)).toEqual([]);
  }, 90_000);
});
