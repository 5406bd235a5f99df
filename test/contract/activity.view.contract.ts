import { LogPosition } from '@crawlhub/eventlog';
import { ActivityMessage, ActivityView, activityMessageId, compareActivity, recordActivity, StoredActivity } from '@crawlhub/activity';
import { createEvent } from '@crawlhub/contracts';
import { eachViewFixture, FakeProjector, ViewFixture, ViewHarness } from './view-fixture';
import { stampsAt } from '../support/stamps';

/** Messages of one event: ids derived from the event id and the index, as the projection makes them. */
const msgs = (event: string, ts: number, objs: object[]): ActivityMessage[] =>
  objs.map((o, i) => ({ id: activityMessageId(event, i), json: JSON.stringify(o), ts }));

export function activityViewContract(name: string, harness: ViewHarness<ActivityView>): void {
  describe(`ActivityView contract: ${name}`, () => {
    let f: ViewFixture<ActivityView>;
    let view: ActivityView;
    let p: FakeProjector;
    eachViewFixture(harness, (fixture, projector) => ((f = fixture), (view = fixture.view), (p = projector)));

    const record = (project: number, messages: ActivityMessage[]) => p.batch((at) => view.record(at, project, messages));
    const all = async (project: number, limit = 1000) => view.scan({ project, limit });
    const texts = (rs: StoredActivity[]) => rs.map((r) => r.json);

    it('has nothing for an unknown project', async () => {
      expect(await all(1)).toEqual([]);
      expect(await view.projects()).toEqual([]);
    });

    it('reads a project newest first: later events first, and within one event the last message first', async () => {
      await record(1, msgs('e1', 1000, [{ n: 1 }, { n: 2 }]));
      await record(1, msgs('e2', 2000, [{ n: 3 }]));
      await record(1, msgs('e3', 2000, [{ n: 4 }, { n: 5 }, { n: 6 }]));
      const got = await all(1);
      expect(texts(got)).toEqual(['{"n":6}', '{"n":5}', '{"n":4}', '{"n":3}', '{"n":2}', '{"n":1}']);
      expect(got.map((r) => r.ts)).toEqual([2000, 2000, 2000, 2000, 1000, 1000]);
      expect(got.every((r) => r.project === 1)).toBe(true);
      expect(got[0].id).toBe(activityMessageId('e3', 2));
      for (let i = 1; i < got.length; i++) expect(compareActivity(got[i - 1], got[i])).toBeGreaterThan(0);
    });

    it('orders by time first, whatever the order the events were applied in', async () => {
      // Other contexts' events (another topic, other offsets) may be applied out of time order.
      await record(1, msgs('late', 5000, [{ at: 5 }]));
      await record(1, msgs('early', 3000, [{ at: 3 }]));
      await record(1, msgs('middle', 4000, [{ at: 4 }]));
      expect(texts(await all(1))).toEqual(['{"at":5}', '{"at":4}', '{"at":3}']);
    });

    it('keeps each message text byte for byte', async () => {
      const raw = ['{"b":1,"a":"é\\u00e9\\n","big":12345678901234567890,"f":1.0}', '{}', '{"$set":{"x.y":[null,true]},"":0}'];
      await record(7, raw.map((json, i) => ({ id: `raw:${i}`, json, ts: 10 })));
      expect(texts(await all(7))).toEqual([...raw].reverse());
    });

    it('pages with limit and before, and keeps projects apart', async () => {
      for (let e = 0; e < 5; e++) await record(2, msgs(`p2-${e}`, 100 + e, [{ e, i: 0 }, { e, i: 1 }]));
      await record(3, msgs('p3', 50, [{ other: true }]));
      const first = await view.scan({ project: 2, limit: 3 });
      expect(first.map((r) => JSON.parse(r.json))).toEqual([{ e: 4, i: 1 }, { e: 4, i: 0 }, { e: 3, i: 1 }]);
      const second = await view.scan({ project: 2, limit: 3, before: first[2] });
      expect(second.map((r) => JSON.parse(r.json))).toEqual([{ e: 3, i: 0 }, { e: 2, i: 1 }, { e: 2, i: 0 }]);
      const rest = await view.scan({ project: 2, limit: 100, before: second[2] });
      expect(rest).toHaveLength(4);
      expect(await view.scan({ project: 2, limit: 100, before: rest[3] })).toEqual([]);
      expect(await view.scan({ project: 2, limit: 0 })).toEqual([]);
      expect(texts(await all(3))).toEqual(['{"other":true}']);
      expect(await all(4)).toEqual([]);
    });

    it('lists the projects that have messages, ascending', async () => {
      await record(30, msgs('a', 1, [{ a: 1 }]));
      await record(4, msgs('b', 2, [{ b: 1 }, { b: 2 }]));
      await record(123456789012345, msgs('c', 3, [{ c: 1 }]));
      await record(0, msgs('d', 4, [{ d: 1 }]));
      await record(30, msgs('e', 5, [{ e: 1 }]));
      expect(await view.projects()).toEqual([0, 4, 30, 123456789012345]);
      expect(texts(await all(123456789012345))).toEqual(['{"c":1}']);
    });

    it('stores the same id once', async () => {
      await record(1, msgs('e1', 1000, [{ n: 1 }, { n: 2 }]));
      await record(1, msgs('e1', 1000, [{ n: 1 }, { n: 2 }]));
      await record(1, [{ id: activityMessageId('e1', 0), json: '{"changed":true}', ts: 9000 }]);
      expect(texts(await all(1))).toEqual(['{"n":2}', '{"n":1}']);
    });

    it('applying an event again changes nothing', async () => {
      const applied = await p.batch(
        (at) => view.record(at, 1, msgs('e1', 1000, [{ n: 1 }, { n: 2 }])),
        (at) => view.record(at, 2, msgs('e2', 1500, [{ n: 'two' }])),
        (at) => view.record(at, 1, msgs('e3', 1000, [{ n: 3 }])),
        (at) => view.record(at, 1, msgs('e4', 900, [{ n: 0 }])),
      );
      const before = [await all(1), await all(2), await view.projects()];
      expect(texts(before[0] as StoredActivity[])).toEqual(['{"n":3}', '{"n":2}', '{"n":1}', '{"n":0}']);
      for (let i = 0; i < applied.length; i++) {
        await p.replay(applied.slice(i));
        expect([await all(1), await all(2), await view.projects()]).toEqual(before);
      }
    });

    it('records platform messages from another projection with recordActivity', async () => {
      const event = createEvent({ type: 'jobs.job-scheduled', key: '1/2/3', data: {}, actor: { kind: 'system', id: 'contract' } }, stampsAt(4242));
      const apply = (at: LogPosition) => recordActivity(view, { ...at, event }, 1, [{ event: 'job:scheduled', job: '1/2/3', user: 'alice' }]);
      const applied = await p.batch(apply);
      await p.replay(applied);
      const got = await all(1);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ project: 1, ts: 4242, id: activityMessageId(event.id, 0), json: '{"event":"job:scheduled","job":"1/2/3","user":"alice"}' });
    });
  });
}
