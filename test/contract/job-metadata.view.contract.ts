import { JobKey } from '@crawlhub/contracts';
import { JobMetadataView } from '@crawlhub/storage';
import { eachViewFixture, FakeProjector, ViewFixture, ViewHarness } from './view-fixture';

const J1: JobKey = { project: 1, spider: 2, job: 3 };
const J2: JobKey = { project: 1, spider: 2, job: 4 };

export function jobMetadataViewContract(name: string, harness: ViewHarness<JobMetadataView>): void {
  describe(`JobMetadataView contract: ${name}`, () => {
    let f: ViewFixture<JobMetadataView>;
    let view: JobMetadataView;
    let p: FakeProjector;
    eachViewFixture(harness, (fixture, projector) => ((f = fixture), (view = fixture.view), (p = projector)));

    const merge = (job: JobKey, fields: Record<string, unknown>) => p.batch((at) => view.merge(at, job, fields, 1000 + at.offset));
    const del = (job: JobKey, field: string) => p.batch((at) => view.deleteField(at, job, field, 1000 + at.offset));
    /** The fields clients wrote, or null. */
    const fieldsOf = async (job: JobKey) => (await view.get(job))?.fields ?? null;

    it('has nothing for an unknown job', async () => {
      expect(await fieldsOf(J1)).toBeNull();
    });

    it('merges fields, keeping the order in which each was first set', async () => {
      await merge(J1, { state: 'running', spider: 'books', tags: ['a'] });
      await merge(J1, { close_reason: 'finished', state: 'finished' });
      const doc = await fieldsOf(J1);
      expect(doc).toEqual({ state: 'finished', spider: 'books', tags: ['a'], close_reason: 'finished' });
      expect(Object.keys(doc!)).toEqual(['state', 'spider', 'tags', 'close_reason']);
      expect(await fieldsOf(J2)).toBeNull();
      expect(await fieldsOf({ project: 1, spider: 23, job: 4 })).toBeNull();
    });

    it('stores null, nested values and any key (dots, $, empty, numeric-looking)', async () => {
      const fields = { z: null, 'a.b': 1, $set: { 'x.y': [1, { $in: true }] }, '': 'empty', '10': 'ten', nested: { deep: { list: [null, 1.5, 'é'] } } };
      await merge(J1, fields);
      const doc = await fieldsOf(J1);
      expect(doc).toEqual(fields);
      expect(Object.keys(doc!)).toEqual(Object.keys(fields));
      await merge(J1, { z: 0 });
      expect((await fieldsOf(J1))!.z).toBe(0);
      await merge(J1, { z: null });
      expect(await fieldsOf(J1)).toHaveProperty('z', null);
    });

    it('deletes a field; a missing field or job is left alone', async () => {
      await merge(J1, { a: 1, b: 2, c: 3 });
      await del(J1, 'b');
      expect(await fieldsOf(J1)).toEqual({ a: 1, c: 3 });
      await del(J1, 'nope');
      await del(J2, 'a');
      expect(await fieldsOf(J1)).toEqual({ a: 1, c: 3 });
      // The deletion is remembered even where nothing was written (it hides a platform field).
      expect(await view.get(J2)).toEqual({ fields: {}, times: { a: expect.any(Number) } });
      // A field set again after deletion goes to the end.
      await merge(J1, { b: 'again' });
      expect(Object.keys((await fieldsOf(J1))!)).toEqual(['a', 'c', 'b']);
      await del(J1, 'a');
      await del(J1, 'c');
      await del(J1, 'b');
      expect(await fieldsOf(J1)).toEqual({});
    });

    it('applying an event again changes nothing', async () => {
      const applied = await p.batch(
        (at) => view.merge(at, J1, { a: 1, b: 1 }, 1000 + at.offset),
        (at) => view.merge(at, J2, { x: 'two' }, 1000 + at.offset),
        (at) => view.deleteField(at, J1, 'a', 1000 + at.offset),
        (at) => view.merge(at, J1, { b: 2, c: 3 }, 1000 + at.offset),
        (at) => view.merge(at, J1, { a: 'back' }, 1000 + at.offset),
      );
      const before = [await fieldsOf(J1), await fieldsOf(J2)];
      expect(before[0]).toEqual({ b: 2, c: 3, a: 'back' });
      expect(Object.keys(before[0]!)).toEqual(['b', 'c', 'a']);
      for (let i = 0; i < applied.length; i++) {
        await p.replay(applied.slice(i));
        const after = [await fieldsOf(J1), await fieldsOf(J2)];
        expect(after).toEqual(before);
        expect(Object.keys(after[0]!)).toEqual(['b', 'c', 'a']);
      }
    });

    it('remembers when each field was last written or deleted', async () => {
      await merge(J1, { a: 1, b: 2 });
      await merge(J1, { b: 3 });
      await del(J1, 'a');
      const doc = await view.get(J1);
      expect(doc!.fields).toEqual({ b: 3 });
      expect(Object.keys(doc!.times).sort()).toEqual(['a', 'b']);
      expect(doc!.times.a).toBeGreaterThan(doc!.times.b);
    });
  });
}
