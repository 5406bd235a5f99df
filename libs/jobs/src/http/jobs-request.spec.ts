import { ApiError } from '@crawlhub/http';
import { pushRequestOf } from '../commands/push-job/push-job.controller';
import { jsonStringList } from './jobs-request';

describe('jsonStringList', () => {
  it('takes a list of strings, or nothing', () => {
    expect(jsonStringList({ tags: ['a', 'b'] }, 'tags')).toEqual(['a', 'b']);
    expect(jsonStringList({}, 'tags')).toEqual([]);
  });

  it.each([['a string', 'witness'], ['a list holding a number', ['a', 1]], ['null', null], ['an object', { a: 1 }]])('refuses %s with 400', (_what, value) => {
    expect(() => jsonStringList({ spiders: value }, 'spiders')).toThrow(ApiError);
    expect(() => jsonStringList({ spiders: value }, 'spiders')).toThrow(/^Invalid spiders: .* \(a list of strings\)$/);
  });
});

describe('pushRequestOf (JobQ push)', () => {
  it('takes tags (or add_tag) as a list of strings', () => {
    expect(pushRequestOf({ spider: 's', tags: ['a'] }, 'me').tags).toEqual(['a']);
    expect(pushRequestOf({ spider: 's', add_tag: ['b'] }, 'me').tags).toEqual(['b']);
  });

  it('refuses tags that are not a list instead of storing a string where clients read a list', () => {
    expect(() => pushRequestOf({ spider: 's', tags: 'a' }, 'me')).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => pushRequestOf({ spider: 's', add_tag: 'a' }, 'me')).toThrow(expect.objectContaining({ status: 400 }));
  });
});
