import { LoggedEvent } from '@crawlhub/eventlog';
import { cli } from './cli';
import { TestPlatform } from './platform';

/**
 * What the suites of the deciders' facts (jobs, frontier, proxy sessions: `*-facts.test.ts`)
 * do alike: replay, audit through the CLI with the views deleted, and the upgrade of a log
 * written before decisions were facts.
 */

/** For each request (`requestTypes`, in log order) of `events`, how many facts (`factType`, caused by it) they hold. */
export function factsPerRequest(events: LoggedEvent[], requestTypes: readonly string[], factType: string): number[] {
  const facts = new Map<string, number>();
  for (const e of events) if (e.event.type === factType && e.event.causationId !== null) facts.set(e.event.causationId, (facts.get(e.event.causationId) ?? 0) + 1);
  return events.filter((e) => requestTypes.includes(e.event.type)).map((r) => facts.get(r.event.id) ?? 0);
}

/** Rebuilds the views from the log with the projector stopped meanwhile, as `crawlhub replay` does. */
export async function replayViews(p: TestPlatform): Promise<void> {
  await p.projector!.stop();
  await p.projector!.replay(() => undefined);
  await p.projector!.start();
}

/**
 * Runs `crawlhub audit <args>` (the built CLI, as an operator runs it) on the platform's
 * lane with every view deleted: audit reads the log alone. Call `replayViews` afterwards.
 */
export async function auditWithoutViews(p: TestPlatform, args: string[]): Promise<{ code: number; out: string }> {
  await p.projector!.stop();
  await p.core.projections.reset();
  const config = p.core.config;
  const laneEnv: Record<string, string> = {
    EVENT_LOG: config.eventLog.kind,
    EVENT_LOG_NAMESPACE: config.eventLog.namespace,
    VIEW_STORE: config.viewStore.kind,
    ...(config.eventLog.kind === 'kafka' ? { KAFKA_BROKERS: config.eventLog.brokers.join(',') } : {}),
    ...(config.viewStore.kind === 'mongodb' ? { MONGODB_URI: config.viewStore.uri, MONGODB_DATABASE: config.viewStore.database } : {}),
  };
  return cli(config.dataDir, ['audit', ...args], laneEnv);
}

/** The entries `crawlhub audit <target> --json` prints (one JSON object a line), with every view deleted. */
export async function auditJsonWithoutViews(p: TestPlatform, target: string): Promise<unknown[]> {
  const { code, out } = await auditWithoutViews(p, [target, '--json']);
  if (code !== 0) throw new Error(`crawlhub audit ${target} --json exited with ${code}: ${out}`);
  return out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
}

/**
 * The views a release before facts left (it decided while projecting and kept its
 * decisions in a table of its own): a row in that table on SQLite (`sqlite`: the SQL
 * that makes it), a document in that collection on MongoDB.
 */
export async function leaveViewsOfReleaseBeforeFacts(p: TestPlatform, views: { sqlite: string; mongodb: { collection: string; _id: string } }): Promise<void> {
  if (p.core.views.kind === 'sqlite') p.core.views.db.writer.exec(views.sqlite);
  else await p.core.views.db.db.collection<{ _id: string }>(views.mongodb.collection).insertOne({ _id: views.mongodb._id });
}

/**
 * The upgrade (docs/DESIGN.md, Upgrading), on a log whose requests have no fact and the
 * views `oldViews` of the release before facts: the live decider decides nothing on such
 * views; `crawlhub replay` decides each request once. `facts` counts each request's facts.
 * The projector is left stopped.
 */
export async function upgradeLogBeforeFacts(p: TestPlatform, oldViews: Parameters<typeof leaveViewsOfReleaseBeforeFacts>[1], facts: () => Promise<number[]>): Promise<void> {
  const undecided = await facts();
  expect(undecided.length).toBeGreaterThan(0);
  expect(undecided).toEqual(undecided.map(() => 0));
  await leaveViewsOfReleaseBeforeFacts(p, oldViews);
  await p.projector!.start();
  await new Promise((r) => setTimeout(r, 2_000));
  expect(await facts()).toEqual(undecided);
  await p.projector!.stop();
  await p.projector!.replay(() => undefined);
  expect(await facts()).toEqual(undecided.map(() => 1));
}
