import { PushJobCommand } from './push-job.command';

const actor = { kind: 'system', id: 'scheduler' } as const;
const push = (input: Record<string, unknown>) => new PushJobCommand(1, { by: 'me', ...input }, actor);

describe('PushJobCommand: every caller of the push use case gets its checks', () => {
  it('fills the defaults of a push', () => {
    expect(push({ spider: 's' }).request).toEqual({
      op: 'push', spider: 's', state: 'pending', tags: [], meta: {}, spiderArgs: {}, jobSettings: null, priority: 2, units: 1,
      unique: null, refuseDuplicateArgs: false, spiderType: 'manual', by: 'me', fire: null,
    });
  });

  it('keeps what the push says, spider arguments as text', () => {
    const { request } = push({ spider: 's', state: 'deleted', tags: ['a'], meta: { x: 1 }, spiderArgs: { n: 3 }, priority: 4, units: 6, unique: 7, spiderType: 'periodic' });
    expect(request).toMatchObject({ state: 'deleted', tags: ['a'], meta: { x: 1 }, spiderArgs: { n: '3' }, priority: 4, units: 6, unique: '7', spiderType: 'periodic' });
  });

  // The words of the JobQ push API (test/e2e/jobs-api*.test.ts): a direct caller (the scheduler) reads the same.
  it.each([
    [{}, 'push needs a "spider" name'],
    [{ spider: '' }, expect.stringMatching(/spider/)],
    [{ spider: 's', state: 'done' }, 'Invalid state: "done" (one of pending, running, finished, deleted)'],
    [{ spider: 's', tags: 'a' }, 'Invalid tags: "a" (a list of strings)'],
    [{ spider: 's', meta: { state: 'x' } }, 'Field "state" is set by the platform and cannot be written'],
    [{ spider: 's', spiderArgs: [] }, '"spider_args" must be an object'],
    [{ spider: 's', jobSettings: 'x' }, '"job_settings" must be an object'],
    [{ spider: 's', priority: 7 }, 'Invalid priority: 7 (an integer from 0 to 4)'],
    [{ spider: 's', priority: 1.5 }, 'Invalid priority: 1.5 (an integer from 0 to 4)'],
    [{ spider: 's', units: 0 }, 'Invalid units: 0 (an integer from 1 to 6)'],
  ])('refuses %j with 400: %s', (input, message) => {
    expect(() => push(input)).toThrow(expect.objectContaining({ status: 400, message }));
  });

  it('refuses the first problem, in the order the API checks them', () => {
    expect(() => push({ spider: 's', state: 'done', priority: 9 })).toThrow(expect.objectContaining({ message: expect.stringMatching(/^Invalid state/) }));
  });
});
