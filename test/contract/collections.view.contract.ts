import { CollectionRef } from '@crawlhub/contracts';
import { CollectionsView, packCollectionLine, StoredCollectionRecord } from '@crawlhub/collections';
import { eachViewFixture, FakeProjector, ViewHarness } from './view-fixture';

const S: CollectionRef = { project: 1, type: 's', name: 'store' };
const VS: CollectionRef = { project: 1, type: 'vs', name: 'store' };
const rec = (key: string, value: unknown = key) => ({ key, json: JSON.stringify({ value }) });
const keys = (rs: StoredCollectionRecord[]) => rs.map((r) => r.key);
const values = (rs: StoredCollectionRecord[]) => rs.map((r) => JSON.parse(r.json).value);

export function collectionsViewContract(name: string, harness: ViewHarness<CollectionsView>): void {
  describe(`CollectionsView contract: ${name}`, () => {
    let view: CollectionsView;
    let p: FakeProjector;
    eachViewFixture(harness, (fixture, projector) => ((view = fixture.view), (p = projector)));

    const write = (ref: CollectionRef, records: { key: string; json: string }[], ts = 1000, keepVersions = 3) =>
      p.write((at) => view.write(at, { ...ref, records, ts, keepVersions }));
    const all = (ref: CollectionRef) => view.scan(ref, { low: '', high: null, limit: 1000 });

    it('writes records and scans them in byte order of their keys, JSON text kept as given', async () => {
      expect(await all(S)).toEqual([]);
      const ks = ['my_key_2', 'my_key_10', 'my_key_1', 'B', 'a', 'é', 'a/b', 'with "quote"'];
      await p.deliver([write(S, [...ks.map((k) => rec(k)), { key: 'raw', json: '{"z":1.0,"a":"\\u00e9"}' }], 111)]);
      const got = await all(S);
      expect(keys(got)).toEqual(['B', 'a', 'a/b', 'my_key_1', 'my_key_10', 'my_key_2', 'raw', 'with "quote"', 'é']);
      expect(got.find((r) => r.key === 'raw')).toEqual({ key: 'raw', ts: 111, json: '{"z":1.0,"a":"\\u00e9"}' });
      expect(keys(await view.scan(S, { low: 'my_key_1', high: 'my_key_2', limit: 10 }))).toEqual(['my_key_1', 'my_key_10']);
      expect(keys(await view.scan(S, { low: 'a', high: null, limit: 2 }))).toEqual(['a', 'a/b']);
      expect(keys(await view.getMany(S, ['B', 'missing', 'my_key_10']))).toEqual(['B', 'my_key_10']);
      expect(await view.getMany(S, [])).toEqual([]);
    });

    it('keeps collections apart by project, name and type (names that prefix each other too)', async () => {
      const refs: CollectionRef[] = [S, VS, { project: 1, type: 's', name: 'store_b' }, { project: 1, type: 's', name: 'stor' }, { project: 10, type: 's', name: 'store' }, { project: 2, type: 'cs', name: 'store' }];
      await p.deliver(refs.map((ref, i) => write(ref, [rec('k', i), rec(`only${i}`)])));
      for (const [i, ref] of refs.entries()) {
        expect(keys(await all(ref))).toEqual(['k', `only${i}`]);
        expect(values(await view.getMany(ref, ['k']))).toEqual([i]);
      }
      expect(await view.list(1)).toEqual([{ type: 's', name: 'stor' }, { type: 's', name: 'store' }, { type: 'vs', name: 'store' }, { type: 's', name: 'store_b' }]);
      expect(await view.list(2)).toEqual([{ type: 'cs', name: 'store' }]);
      expect(await view.list(3)).toEqual([]);
      expect(await view.exists(1, 'store')).toBe(true);
      expect(await view.exists(1, 'sto')).toBe(false);
      expect(await view.exists(3, 'store')).toBe(false);
    });

    it('overwrites a key; in one write the last of a repeated key wins', async () => {
      await p.deliver([write(S, [rec('a', 1), rec('b', 1), rec('a', 2)], 100), write(S, [rec('b', 3)], 200)]);
      expect(await all(S)).toEqual([
        { key: 'a', ts: 100, json: '{"value":2}' },
        { key: 'b', ts: 200, json: '{"value":3}' },
      ]);
      expect(await view.versions(S, 'a')).toEqual([{ key: 'a', ts: 100, json: '{"value":2}' }]);
    });

    it('keeps the newest versions of vs records, newest first', async () => {
      await p.deliver([1, 2, 3, 4, 5].map((v) => write(VS, [rec('k', v), rec(`k${v}`, v)], v * 100, 3)));
      expect(values(await view.getMany(VS, ['k']))).toEqual([5]);
      const versions = await view.versions(VS, 'k');
      expect(values(versions)).toEqual([5, 4, 3]);
      expect(versions.map((r) => r.ts)).toEqual([500, 400, 300]);
      expect(values(await view.versions(VS, 'k1'))).toEqual([1]);
      expect(await view.versions(VS, 'none')).toEqual([]);
      expect(keys(await all(VS))).toEqual(['k', 'k1', 'k2', 'k3', 'k4', 'k5']);
      // keepVersions is applied at each write
      await p.deliver([write(VS, [rec('k', 6)], 600, 1)]);
      expect(values(await view.versions(VS, 'k'))).toEqual([6]);
    });

    it('stages chunks invisibly and commits them in order as one write; aborts drop them', async () => {
      const line = (key: string, value: unknown) => packCollectionLine(rec(key, value));
      await p.deliver([
        write(VS, [rec('x', 0)], 50),
        p.write((at) => view.stageChunk(at, { project: 1, upload: 'u1', seq: 0, lines: [line('x', 1), line('a', 1)] })),
        p.write((at) => view.stageChunk(at, { project: 1, upload: 'u1', seq: 1, lines: [line('x', 2), line('b', 2)] })),
        p.write((at) => view.stageChunk(at, { project: 1, upload: 'u2', seq: 0, lines: [line('dropped', 1)] })),
      ]);
      expect(keys(await all(VS))).toEqual(['x']);
      await p.deliver([
        p.write((at) => view.commitUpload(at, { ...VS, upload: 'u1', ts: 70, keepVersions: 3 })),
        p.write((at) => view.abortUpload(at, { project: 1, upload: 'u2' })),
      ]);
      const got = await all(VS);
      expect(keys(got)).toEqual(['a', 'b', 'x']);
      expect(values(got)).toEqual([1, 2, 2]);
      expect(got.every((r) => r.ts === 70)).toBe(true);
      expect(values(await view.versions(VS, 'x'))).toEqual([2, 1, 0]);
      // a later commit of the aborted upload finds nothing
      await p.deliver([p.write((at) => view.commitUpload(at, { ...VS, upload: 'u2', ts: 80, keepVersions: 3 }))]);
      expect(keys(await all(VS))).toEqual(['a', 'b', 'x']);
    });

    it('deletes records with their versions; a missing key changes nothing', async () => {
      await p.deliver([write(VS, [rec('a'), rec('b'), rec('c')]), write(VS, [rec('a', 2)]), write(S, [rec('a')])]);
      await p.deliver([p.write((at) => view.deleteRecords(at, VS, ['a', 'c', 'missing']))]);
      expect(keys(await all(VS))).toEqual(['b']);
      expect(await view.versions(VS, 'a')).toEqual([]);
      expect(keys(await all(S))).toEqual(['a']);
      await p.deliver([write(VS, [rec('a', 3)])]);
      expect(values(await view.versions(VS, 'a'))).toEqual([3]);
    });

    it('keeps listing a collection emptied of its records (as the original), until it is deleted; a rename moves it', async () => {
      const CS: CollectionRef = { project: 1, type: 'cs', name: 'cache' };
      await p.deliver([write(S, [rec('a')]), write(CS, [rec('old')], 100)]);
      await p.deliver([p.write((at) => view.deleteRecords(at, S, ['a'])), p.write((at) => view.purgeExpired(at, 1, 500))]);
      expect(await all(S)).toEqual([]);
      expect(await all(CS)).toEqual([]);
      expect(await view.list(1)).toEqual([{ type: 'cs', name: 'cache' }, { type: 's', name: 'store' }]);
      expect(await view.exists(1, 'store')).toBe(true);
      await p.deliver([p.write((at) => view.renameCollection(at, 1, 'store', 'kept'))]);
      expect(await view.list(1)).toEqual([{ type: 'cs', name: 'cache' }, { type: 's', name: 'kept' }]);
      await p.deliver([p.write((at) => view.deleteCollection(at, 1, 'kept')), p.write((at) => view.deleteCollection(at, 1, 'cache'))]);
      expect(await view.list(1)).toEqual([]);
      expect(await view.exists(1, 'kept')).toBe(false);
    });

    it('deletes a collection of every type, and only that name', async () => {
      const other: CollectionRef = { project: 1, type: 's', name: 'store_b' };
      await p.deliver([write(S, [rec('a')]), write(VS, [rec('a')]), write(VS, [rec('a', 2)]), write(other, [rec('a')]), write({ ...S, project: 2 }, [rec('a')])]);
      await p.deliver([p.write((at) => view.deleteCollection(at, 1, 'store'))]);
      expect(await all(S)).toEqual([]);
      expect(await all(VS)).toEqual([]);
      expect(await view.versions(VS, 'a')).toEqual([]);
      expect(keys(await all(other))).toEqual(['a']);
      expect(keys(await all({ ...S, project: 2 }))).toEqual(['a']);
      expect(await view.list(1)).toEqual([{ type: 's', name: 'store_b' }]);
    });

    it('renames every type with versions and timestamps; moved records replace same keys', async () => {
      const to = (ref: CollectionRef) => ({ ...ref, name: 'moved' });
      await p.deliver([
        write(S, [rec('a', 's'), rec('b', 's')], 10),
        write(VS, [rec('a', 1)], 20),
        write(VS, [rec('a', 2)], 30),
        write(to(S), [rec('b', 'old target'), rec('z', 'target only')], 5),
        write(to(VS), [rec('a', 'old target')], 5),
        write(to(VS), [rec('a', 'old target 2')], 6),
      ]);
      await p.deliver([p.write((at) => view.renameCollection(at, 1, 'store', 'moved'))]);
      expect(await all(S)).toEqual([]);
      expect(await all(VS)).toEqual([]);
      expect(await all(to(S))).toEqual([
        { key: 'a', ts: 10, json: '{"value":"s"}' },
        { key: 'b', ts: 10, json: '{"value":"s"}' },
        { key: 'z', ts: 5, json: '{"value":"target only"}' },
      ]);
      expect(values(await view.versions(to(VS), 'a'))).toEqual([2, 1]);
      expect(await view.list(1)).toEqual([{ type: 's', name: 'moved' }, { type: 'vs', name: 'moved' }]);
      // later writes to the new name version on top of the moved history
      await p.deliver([write(to(VS), [rec('a', 3)], 40)]);
      expect(values(await view.versions(to(VS), 'a'))).toEqual([3, 2, 1]);
    });

    it('purges records of cached types written before the bound', async () => {
      const CS: CollectionRef = { project: 1, type: 'cs', name: 'c' };
      const VCS: CollectionRef = { project: 1, type: 'vcs', name: 'c' };
      await p.deliver([write(CS, [rec('old')], 100), write(CS, [rec('new')], 900), write(VCS, [rec('v', 1)], 100), write(VCS, [rec('v', 2)], 900), write(S, [rec('old')], 100)]);
      await p.deliver([p.write((at) => view.purgeExpired(at, 1, 500))]);
      expect(keys(await all(CS))).toEqual(['new']);
      expect(values(await view.versions(VCS, 'v'))).toEqual([2]);
      expect(keys(await all(S))).toEqual(['old']);
    });

    it('applying the same events again changes nothing', async () => {
      const other: CollectionRef = { ...S, name: 'other' };
      const line = (key: string, value: unknown) => packCollectionLine(rec(key, value));
      const writes = [
        write(VS, [rec('a', 1), rec('b', 1)], 10),
        write(VS, [rec('a', 2)], 20),
        write(S, [rec('x', 1), rec('y', 1)], 10),
        p.write((at) => view.deleteRecords(at, S, ['y'])),
        write(S, [rec('y', 2)], 30),
        write(other, [rec('o', 1)], 10),
        p.write((at) => view.renameCollection(at, 1, 'other', 'renamed')),
        write(other, [rec('o', 2)], 40),
        p.write((at) => view.stageChunk(at, { project: 1, upload: 'u', seq: 0, lines: [line('a', 3), line('c', 3)] })),
        p.write((at) => view.stageChunk(at, { project: 1, upload: 'u', seq: 1, lines: [line('a', 4)] })),
        p.write((at) => view.commitUpload(at, { ...VS, upload: 'u', ts: 50, keepVersions: 3 })),
        write({ ...S, name: 'gone' }, [rec('g')], 10),
        p.write((at) => view.deleteCollection(at, 1, 'gone')),
      ];
      await p.deliver(writes);
      const snapshot = async () => ({
        vs: await all(VS),
        versions: await view.versions(VS, 'a'),
        s: await all(S),
        renamed: await all({ ...S, name: 'renamed' }),
        other: await all(other),
        gone: await all({ ...S, name: 'gone' }),
        list: await view.list(1),
      });
      const before = await snapshot();
      expect(values(before.versions)).toEqual([4, 3, 2]);
      expect(values(before.s)).toEqual([1, 2]);
      expect(values(before.renamed)).toEqual([1]);
      expect(values(before.other)).toEqual([2]);
      expect(before.gone).toEqual([]);
      await p.replay(writes);
      expect(await snapshot()).toEqual(before);
    });
  });
}
