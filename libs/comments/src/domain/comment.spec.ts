import { commentIdAt, commentObject, commentTextProblem, MAX_COMMENT_CHARS, StoredComment, targetKey } from './comment';

describe('comment ids', () => {
  it('are unique per log position, start at 1 and are the same whenever computed', () => {
    expect(commentIdAt({ partition: 0, offset: 0 })).toBe(1);
    expect(commentIdAt({ partition: 3, offset: 0 })).toBe(4);
    expect(commentIdAt({ partition: 0, offset: 1 })).toBe(1025);
    expect(commentIdAt({ partition: 1023, offset: 7 })).toBe(7 * 1024 + 1024);
    const seen = new Set<number>();
    for (let partition = 0; partition < 1024; partition += 31) for (let offset = 0; offset < 50; offset++) seen.add(commentIdAt({ partition, offset }));
    expect(seen.size).toBe(Math.ceil(1024 / 31) * 50);
    expect(() => commentIdAt({ partition: 1024, offset: 0 })).toThrow(/out of range/);
  });
});

describe('comment texts', () => {
  it('must be present, not blank, and not too long', () => {
    expect(commentTextProblem(null)).toMatch(/required/);
    expect(commentTextProblem('')).toMatch(/empty/);
    expect(commentTextProblem(' \n\t')).toMatch(/empty/);
    expect(commentTextProblem('x'.repeat(MAX_COMMENT_CHARS + 1))).toMatch(/longer/);
    expect(commentTextProblem('x'.repeat(MAX_COMMENT_CHARS))).toBeNull();
    expect(commentTextProblem(' ok ')).toBeNull();
  });
});

describe('the comment object', () => {
  const c: StoredComment = { id: 5, project: 1, spider: 2, job: 3, item: 4, field: 'name', author: 'key-a', text: 't', created: Date.UTC(2026, 0, 2, 3, 4, 5, 6), archived: null };

  it('has the documented keys, ISO dates, and is editable by its author only', () => {
    const o = commentObject(c, 'key-a');
    expect(Object.keys(o)).toEqual(['id', 'created', 'archived', 'author', 'avatar', 'text', 'editable']);
    expect(o).toEqual({ id: 5, created: '2026-01-02T03:04:05.006Z', archived: null, author: 'key-a', avatar: '', text: 't', editable: true });
    expect(commentObject(c, 'key-b').editable).toBe(false);
    expect(commentObject({ ...c, archived: Date.UTC(2026, 1, 1) }, 'key-b').archived).toBe('2026-02-01T00:00:00.000Z');
  });

  it('is keyed by item, or item/field, in a job listing', () => {
    expect(targetKey(c)).toBe('4/name');
    expect(targetKey({ ...c, field: null })).toBe('4');
  });
});
