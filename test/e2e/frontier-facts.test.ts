import { createEvent, FRONTIER_BATCHES_DELETED, FRONTIER_BATCHES_LEASED, FRONTIER_DECIDED, FRONTIER_REQUEST_TYPES, FRONTIER_REQUESTS_ADDED, FRONTIER_TOPIC, FrontierDecided, frontierSlotKey } from '@crawlhub/contracts';
import { frontierAuditEntries, requestLine } from '@crawlhub/frontier';
import * as decideModule from '../../libs/frontier/src/domain/decide-frontier';
import { auditJsonWithoutViews, auditWithoutViews, factsPerRequest, replayViews, upgradeLogBeforeFacts } from '../support/decision-facts';
import { topicStream } from '../support/jobs-stream';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { systemStamps } from '../support/stamps';

jest.setTimeout(240_000);

/** Every event of the project's slots in the frontier topic, oldest first per partition. */
async function frontierStream(p: TestPlatform, project: number) {
  return (await topicStream(p.core.eventLog, FRONTIER_TOPIC)).filter((e) => e.event.key.startsWith(`${project}/`));
}

/** How many facts each request of the project has in the log, in log order. */
async function frontierFacts(p: TestPlatform, project: number): Promise<number[]> {
  return factsPerRequest(await frontierStream(p, project), FRONTIER_REQUEST_TYPES, FRONTIER_DECIDED);
}

/**
 * A decider that takes other decisions than the real one: every fingerprint is known (newcount
 * 0, nothing queued) and a lease takes nothing. Switched on in this process only, where the
 * projector (and the decider) run.
 */
function switchDeciderBehaviour(): jest.SpyInstance {
  return jest.spyOn(decideModule, 'decideFrontier').mockImplementation(async (_state, request) => {
    if (request.type === FRONTIER_REQUESTS_ADDED) return { decision: { op: 'add', newcount: 0, batches: [] } };
    if (request.type === FRONTIER_BATCHES_LEASED) return { decision: { op: 'lease', leased: [], until: request.at } };
    return { decision: { op: 'delete-slot' } };
  });
}

/**
 * Frontier decisions are facts in the log (issue 17, "The log"): replay and audit read what
 * was decided (newcount, batches and their ids, leases), never what today's decider would
 * decide; a log written before decisions were facts is decided once, on replay, and its facts
 * appended. On the lane's log and views.
 */
describe('frontier: decisions are facts', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());
  afterEach(() => jest.restoreAllMocks());

  const hcf = (path: string, init: RequestInit = {}) => fetch(`${p.storageUrl}/hcf${path}`, { ...init, headers: { authorization: auth, ...(init.headers ?? {}) } });
  const text = async (res: Response | Promise<Response>) => {
    const r = await res;
    return `${r.status} ${await r.text()}`;
  };
  const lines = (objects: object[]) => objects.map((o) => JSON.stringify(o)).join('\n');
  const post = (slot: string, objects: object[]) => text(hcf(`/71/f1/s/${slot}`, { method: 'POST', body: lines(objects) }));
  const ids = (answer: string) => answer.slice(4).split('\n').filter(Boolean).map((l) => JSON.parse(l).id as string);

  it('replays to the same views and answers after the decider changed, and audit is unchanged', async () => {
    // A history with every kind of decision: new and known fingerprints, priorities, batches of 100, leases, deletes, a slot deleted and used again.
    const answers: string[] = [];
    answers.push(await post('a', Array.from({ length: 150 }, (_, i) => ({ fp: `u${i}`, qdata: { i } }))));
    answers.push(await post('a', [{ fp: 'u1' }, { fp: 'hi', p: 1, fdata: { f: 1 } }, { fp: 'hi' }, { fp: 'u200' }]));
    answers.push(await post('b', [{ fp: 'x' }, { fp: 'y', p: 2 }]));
    const leased = await text(hcf('/71/f1/s/a/q?mincount=1&lease=3600'));
    answers.push(leased);
    answers.push(await text(hcf('/71/f1/s/a/q?mincount=1&lease=3600')));
    answers.push(await text(hcf(`/71/f1/s/a/q/deleted`, { method: 'POST', body: JSON.stringify(ids(leased)) })));
    answers.push(await text(hcf('/71/f1/s/b', { method: 'DELETE' })));
    answers.push(await post('b', [{ fp: 'x' }, { fp: 'z' }]));
    expect(answers.map((a) => a.slice(0, 4))).toEqual(Array(answers.length).fill('200 '));
    expect([answers[0], answers[1], answers[2], answers[7]].map((a) => JSON.parse(a.slice(4)))).toEqual([{ newcount: 150 }, { newcount: 2 }, { newcount: 2 }, { newcount: 2 }]);
    expect(ids(leased)).toHaveLength(1);
    expect(ids(answers[4])).toHaveLength(1);

    const reads = [
      '/71/list',
      '/71/f1/list',
      '/71/f1/s/a/q?mincount=1000',
      '/71/f1/s/a/q/count',
      '/71/f1/s/a/f',
      '/71/f1/s/b/q',
      '/71/f1/s/b/f',
    ];
    const readAll = () => Promise.all(reads.map((r) => text(hcf(r))));
    const before = await readAll();
    expect(JSON.parse(before[3].slice(4))).toEqual({ count: 52 }); // 152 queued, the leased batch of 100 deleted
    const auditBefore = await frontierAuditEntries(p.core.eventLog, 71);
    expect(auditBefore.map((a) => a.decision?.op)).toEqual(['add', 'add', 'add', 'lease', 'lease', 'delete-batches', 'delete-slot', 'add']);
    expect(auditBefore.every((a) => a.deciderVersion === decideModule.FRONTIER_DECIDER_VERSION && a.request !== undefined && a.causationId !== null)).toBe(true);
    expect(await frontierFacts(p, 71)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);

    const changed = switchDeciderBehaviour();
    await replayViews(p);
    expect(changed).not.toHaveBeenCalled();
    expect(await readAll()).toEqual(before);
    expect(await frontierAuditEntries(p.core.eventLog, 71)).toEqual(auditBefore);

    // Audit reads the log alone: the same with every view deleted, through the CLI too (text and --json).
    expect(await auditJsonWithoutViews(p, '71')).toEqual(JSON.parse(JSON.stringify(auditBefore)));
    expect(await frontierAuditEntries(p.core.eventLog, 71)).toEqual(auditBefore);
    const textAudit = await auditWithoutViews(p, ['71']);
    expect(textAudit.code).toBe(0);
    expect(textAudit.out.split('\n').find((l) => l.includes('frontier.requests-added (4 requests)'))).toMatch(
      / by key:key-\w+  correlation [\w-]+  caused by [\w-]+  decider v1  slot f1\/a  frontier.requests-added \(4 requests\) -> \{"op":"add","newcount":2,/,
    );
    await replayViews(p);
    expect(await readAll()).toEqual(before);

    // The switch is live: a new request is decided by the changed rules, the history stays.
    expect(await post('a', [{ fp: 'brand-new' }])).toBe('200 {"newcount":0}');
    expect(changed).toHaveBeenCalledTimes(1);
    expect(await readAll()).toEqual(before);
  });

  it('decides the requests of a log written before decisions were facts once, on replay, and appends their facts', async () => {
    // The current release's log: request events as its handlers append them (this change
    // keeps their type, version and data), no fact. No decider runs while they are written.
    await p.projector!.stop();
    const actor = { kind: 'key' as const, id: 'key-legacy00000' };
    const slot = { project: 81, frontier: 'old', slot: 's' };
    const key = frontierSlotKey(slot.project, slot.frontier, slot.slot);
    const add = (requestId: string, objects: object[]) =>
      createEvent({ type: FRONTIER_REQUESTS_ADDED, key, data: { ...slot, requestId }, lines: objects.map((o, i) => requestLine(o, i + 1)), actor }, systemStamps);
    const lease = (requestId: string, mincount: number) => createEvent({ type: FRONTIER_BATCHES_LEASED, key, data: { ...slot, requestId, mincount, leaseMs: 3_600_000, start: null }, actor }, systemStamps);
    await p.core.eventLog.append(FRONTIER_TOPIC, [add('legacy-1', Array.from({ length: 120 }, (_, i) => ({ fp: `o${i}` })))]);
    await p.core.eventLog.append(FRONTIER_TOPIC, [add('legacy-2', [{ fp: 'o1' }, { fp: 'o500', p: 3 }])]);
    await p.core.eventLog.append(FRONTIER_TOPIC, [lease('legacy-3', 1)]);
    const [firstBatch] = await frontierStream(p, 81);
    await p.core.eventLog.append(FRONTIER_TOPIC, [createEvent({ type: FRONTIER_BATCHES_DELETED, key, data: { ...slot, ids: [] }, actor }, systemStamps)]);
    expect(await frontierFacts(p, 81)).toEqual([0, 0, 0, 0]);

    // The views of that release kept its answers in frontier_outcomes: the decider does not decide on them; replay decides what has no fact, once, in log order.
    const oldViews = { sqlite: `CREATE TABLE frontier_outcomes (request_id TEXT PRIMARY KEY, at INTEGER, outcome TEXT); INSERT INTO frontier_outcomes VALUES ('old', 0, '{}')`, mongodb: { collection: 'frontier_outcomes', _id: 'old' } };
    await upgradeLogBeforeFacts(p, oldViews, () => frontierFacts(p, 81));
    const facts = (await frontierStream(p, 81)).filter((e) => e.event.type === FRONTIER_DECIDED).map((e) => e.event.data as FrontierDecided);
    const firstId = (p: number, index: number) => p.toString(16).padStart(2, '0') + firstBatch.offset.toString(16).padStart(14, '0') + index.toString(16).padStart(4, '0');
    expect(facts.map((f) => f.decision)).toEqual([
      { op: 'add', newcount: 120, batches: [{ id: firstId(0, 0), count: 100 }, { id: firstId(0, 1), count: 20 }] },
      { op: 'add', newcount: 1, batches: [expect.objectContaining({ count: 1 })] },
      { op: 'lease', leased: [firstId(0, 0)], until: expect.any(Number) },
      { op: 'delete-batches', ids: [] },
    ]);
    await p.projector!.start();
    const reads = ['/81/old/s/s/q/count', '/81/old/s/s/q?mincount=1000', '/81/old/s/s/f?count=3'];
    const readAll = () => Promise.all(reads.map((r) => text(hcf(r))));
    const after = await readAll();
    expect(after[0]).toBe('200 {"count":121}');
    // The leased batch is hidden from plain reads: the other two are served.
    expect(ids(after[1])).toEqual([firstId(0, 1), expect.stringMatching(/^03/)]);

    // Decided once: the live decider (running again) and another replay add no fact, and answer the same.
    expect(await post('other', [{ fp: 'later' }])).toBe('200 {"newcount":1}'); // the decider has run past the legacy requests
    await replayViews(p);
    expect(await frontierFacts(p, 81)).toEqual([1, 1, 1, 1]);
    expect(await readAll()).toEqual(after);
  });
});
