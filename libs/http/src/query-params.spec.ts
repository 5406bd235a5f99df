import type { FastifyRequest } from 'fastify';
import { parseBoolean, parseQuery, queryOf } from './query-params';

describe('parseQuery and queryOf', () => {
  const requestWith = (text: string) => ({ query: parseQuery(text) }) as unknown as FastifyRequest;

  it('decode a query string, a repeated name keeping every value', () => {
    expect({ ...queryOf(requestWith('meta=_key&meta=_ts&name=%E6%97%A5+x&flag')) }).toEqual({ meta: ['_key', '_ts'], name: '日 x', flag: '' });
    expect({ ...queryOf(requestWith('')) }).toEqual({});
    // No prototype to reach: __proto__ is a parameter like any other.
    expect(queryOf(requestWith('__proto__=x')).__proto__).toBe('x');
  });

  it('refuse a query string the strict form decoder refuses (400), where the lenient parser stored U+FFFD', () => {
    expect(() => queryOf(requestWith('name=witness&new_name=%FF'))).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/^malformed query string/) }));
    expect(() => queryOf(requestWith('count=%ZZ'))).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('parseBoolean', () => {
  it.each([
    ['true', true],
    ['1', true],
    ['Yes', true],
    [' on ', true],
    ['FALSE', false],
    ['0', false],
    ['no', false],
    ['off', false],
  ])('reads %j as %j', (text, value) => {
    expect(parseBoolean(text)).toBe(value);
  });

  it.each(['maybe', '', '2', 'y', 'truee'])('refuses %j (null)', (text) => {
    expect(parseBoolean(text)).toBeNull();
  });
});
