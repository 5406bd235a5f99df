import { CommentsView, CommentTarget, StoredComment } from '@crawlhub/comments';
import { LogPosition } from '@crawlhub/eventlog';
import { eachViewFixture, FakeProjector, ViewFixture, ViewHarness } from './view-fixture';

const J1 = { project: 1, spider: 2, job: 3 };
const item = (n: number, field: string | null = null, job = J1): CommentTarget => ({ ...job, item: n, field });

let nextId = 1000;
function comment(target: CommentTarget, over: Partial<StoredComment> = {}): StoredComment {
  const id = nextId++;
  return { ...target, id, author: 'key-author', text: `comment ${id}`, created: 1_700_000_000_000 + id, archived: null, ...over };
}

export function commentsViewContract(name: string, harness: ViewHarness<CommentsView>): void {
  describe(`CommentsView contract: ${name}`, () => {
    let f: ViewFixture<CommentsView>;
    let view: CommentsView;
    let p: FakeProjector;
    eachViewFixture(harness, (fixture, projector) => ((f = fixture), (view = fixture.view), (p = projector)));

    const add = (...cs: StoredComment[]) => p.batch(...cs.map((c) => (at: LogPosition) => view.add(at, c)));
    const edit = (c: StoredComment, text: string) => p.batch((at) => view.edit(at, c.project, c.id, text));
    const archive = (t: CommentTarget, ts: number, by: string) => p.batch((at) => view.archive(at, t, ts, by));
    const remove = (c: StoredComment) => p.batch((at) => view.remove(at, c.project, c.id));
    const ids = (cs: StoredComment[]) => cs.map((c) => c.id);
    /** Everything a reader can see, for before/after comparisons. */
    const snapshot = async (cs: StoredComment[]) => ({
      byId: await Promise.all(cs.map((c) => view.get(c.id))),
      job: await view.ofJob(J1),
      other: await view.ofJob({ ...J1, job: 4 }),
      stats: await view.stats(1),
    });

    it('has nothing for unknown ids, jobs and projects', async () => {
      expect(await view.get(1)).toBeNull();
      expect(await view.ofJob(J1)).toEqual([]);
      expect(await view.ofTarget(item(0))).toEqual([]);
      expect(await view.archivedBy(item(0), 'e')).toEqual([]);
      expect(await view.stats(1)).toEqual([]);
    });

    it('stores comments as given and lists a job by item, item before fields, fields by name, then by id', async () => {
      const a = comment(item(1, 'price'), { text: 'é ünïcode\nand "quotes"', author: 'key-a' });
      const b = comment(item(0));
      const c = comment(item(1));
      const d = comment(item(1, 'name'));
      const e = comment(item(1));
      const other = comment(item(1, null, { ...J1, job: 4 }));
      const otherProject = comment(item(1, null, { ...J1, project: 9 }));
      await add(a, b, c, d, e, other, otherProject);
      expect(await view.get(a.id)).toEqual(a);
      expect(await view.get(b.id)).toEqual(b);
      expect((await view.get(b.id))!.field).toBeNull();
      expect(await view.ofJob(J1)).toEqual([b, c, e, d, a]);
      expect(await view.ofTarget(item(1))).toEqual([c, e]);
      expect(await view.ofTarget(item(1, 'price'))).toEqual([a]);
      expect(await view.ofTarget(item(1, 'nope'))).toEqual([]);
      expect(await view.ofJob({ ...J1, job: 4 })).toEqual([other]);
      expect(await view.ofJob({ ...J1, project: 9 })).toEqual([otherProject]);
    });

    it('edits the text only, and only for the comment of that project', async () => {
      const a = comment(item(0));
      await add(a);
      await edit(a, 'new text');
      expect(await view.get(a.id)).toEqual({ ...a, text: 'new text' });
      await p.batch((at) => view.edit(at, 7, a.id, 'wrong project'));
      await p.batch((at) => view.edit(at, 1, 123_456, 'unknown id'));
      expect(await view.get(a.id)).toEqual({ ...a, text: 'new text' });
      expect(await view.get(123_456)).toBeNull();
    });

    it('archives the active comments of exactly the target, once, and says which ones', async () => {
      const a = comment(item(0));
      const b = comment(item(0));
      const field = comment(item(0, 'name'));
      const next = comment(item(1));
      await add(a, b, field, next);
      await archive(item(0), 5_000, 'ev-1');
      expect(await view.get(a.id)).toEqual({ ...a, archived: 5_000 });
      expect(await view.get(b.id)).toEqual({ ...b, archived: 5_000 });
      expect((await view.get(field.id))!.archived).toBeNull();
      expect((await view.get(next.id))!.archived).toBeNull();
      expect(ids(await view.archivedBy(item(0), 'ev-1'))).toEqual([a.id, b.id]);
      // A later comment on the same target is active; archiving again archives only it.
      const later = comment(item(0));
      await add(later);
      await archive(item(0), 6_000, 'ev-2');
      expect(ids(await view.archivedBy(item(0), 'ev-2'))).toEqual([later.id]);
      expect((await view.get(a.id))!.archived).toBe(5_000);
      await archive(item(0), 7_000, 'ev-3');
      expect(await view.archivedBy(item(0), 'ev-3')).toEqual([]);
      await archive(item(0, 'name'), 8_000, 'ev-4');
      expect(ids(await view.archivedBy(item(0, 'name'), 'ev-4'))).toEqual([field.id]);
      // Archived comments stay listed, with their date; they can still be edited.
      expect(ids(await view.ofJob(J1))).toEqual([a.id, b.id, later.id, field.id, next.id]);
      await edit(a, 'edited after archiving');
      expect(await view.get(a.id)).toEqual({ ...a, text: 'edited after archiving', archived: 5_000 });
    });

    it('removes a comment for good; unknown ids and other projects are left alone', async () => {
      const a = comment(item(0));
      const b = comment(item(0));
      await add(a, b);
      await p.batch((at) => view.remove(at, 8, a.id));
      expect(await view.get(a.id)).toEqual(a);
      await remove(a);
      await p.batch((at) => view.remove(at, 1, 999_999));
      expect(await view.get(a.id)).toBeNull();
      expect(await view.ofJob(J1)).toEqual([b]);
      expect(await view.ofTarget(item(0))).toEqual([b]);
      await edit(a, 'too late');
      expect(await view.get(a.id)).toBeNull();
      await archive(item(0), 9_000, 'ev');
      expect(ids(await view.archivedBy(item(0), 'ev'))).toEqual([b.id]);
    });

    it('counts per job the items with unarchived comments (on the item or a field)', async () => {
      const J2 = { ...J1, job: 1 };
      const J3 = { ...J1, spider: 1, job: 9 };
      const onItem = comment(item(0));
      const onField = comment(item(0, 'name'));
      const onOtherField = comment(item(0, 'price'));
      const onlyField = comment(item(1, 'url'));
      const archivedOnly = comment(item(2));
      const deleted = comment(item(3));
      await add(onItem, onField, onOtherField, onlyField, archivedOnly, deleted);
      await add(comment(item(5, null, J2)), comment(item(5, 'x', J2)), comment(item(6, null, J3)));
      await add(comment(item(0, null, { ...J1, project: 2 })));
      await archive(item(2), 1, 'ev-a');
      await remove(deleted);
      expect(await view.stats(1)).toEqual([
        { spider: 1, job: 9, items: 1 },
        { spider: 2, job: 1, items: 1 },
        { spider: 2, job: 3, items: 2 },
      ]);
      // Item 0 still counts while one of its fields has an active comment.
      await archive(item(0), 2, 'ev-b');
      await archive(item(0, 'name'), 2, 'ev-c');
      expect((await view.stats(1)).find((s) => s.job === 3)).toEqual({ spider: 2, job: 3, items: 2 });
      await archive(item(0, 'price'), 3, 'ev-d');
      await archive(item(1, 'url'), 3, 'ev-e');
      expect(await view.stats(1)).toEqual([
        { spider: 1, job: 9, items: 1 },
        { spider: 2, job: 1, items: 1 },
      ]);
      expect(await view.stats(2)).toEqual([{ spider: 2, job: 3, items: 1 }]);
      expect(await view.stats(3)).toEqual([]);
    });

    it('applying an event again changes nothing', async () => {
      const a = comment(item(0));
      const b = comment(item(0, 'name'));
      const c = comment(item(1));
      const d = comment(item(0));
      const e = comment(item(2, null, { ...J1, job: 4 }));
      const applied = await p.batch(
        (at) => view.add(at, a),
        (at) => view.add(at, b),
        (at) => view.add(at, c),
        (at) => view.edit(at, 1, a.id, 'edited once'),
        (at) => view.archive(at, item(0), 10, 'ev-archive'),
        (at) => view.add(at, d),
        (at) => view.remove(at, 1, c.id),
        (at) => view.edit(at, 1, b.id, 'edited twice'),
        (at) => view.add(at, e),
        (at) => view.edit(at, 1, a.id, 'edited again'),
      );
      const all = [a, b, c, d, e];
      const before = await snapshot(all);
      expect(before.byId).toEqual([{ ...a, text: 'edited again', archived: 10 }, { ...b, text: 'edited twice' }, null, d, e]);
      expect(ids(await view.archivedBy(item(0), 'ev-archive'))).toEqual([a.id]);
      for (let i = 0; i < applied.length; i++) {
        await p.replay(applied.slice(i));
        expect(await snapshot(all)).toEqual(before);
        expect(ids(await view.archivedBy(item(0), 'ev-archive'))).toEqual([a.id]);
      }
    });
  });
}
