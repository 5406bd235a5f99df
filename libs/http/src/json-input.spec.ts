import { JSON_NOT_COMPACT, JSON_TOO_DEEP, jsonTextFlags, JsonTooDeepError, MAX_JSON_DEPTH, nestsDeeperThan, parseJson } from './json-input';
import { isCompactJson } from './json-lines';

const nested = (depth: number, open = '[', close = ']', inner = '1') => open.repeat(depth) + inner + close.repeat(depth);

describe('nestsDeeperThan', () => {
  it('counts arrays and objects together, up to the limit included', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    const mixed = '{"a":['.repeat(50) + '1' + ']}'.repeat(50);
    expect(nestsDeeperThan(mixed)).toBe(false);
    expect(nestsDeeperThan(mixed, 99)).toBe(true);
  });

  it('measures depth, not the number of brackets: siblings do not add up', () => {
    expect(nestsDeeperThan(`[${Array.from({ length: 1000 }, () => '[[1]]').join(',')}]`)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ s: '['.repeat(500) }))).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['\\"' + '{'.repeat(500), '\\', 'x"y']))).toBe(false);
    // A string ending in an escaped backslash closes: the brackets after it count.
    expect(nestsDeeperThan(`["a\\\\",${nested(MAX_JSON_DEPTH)}]`)).toBe(true);
  });

  it('leaves malformed text to the parser', () => {
    expect(nestsDeeperThan('"unterminated ' + '['.repeat(500))).toBe(false);
    expect(nestsDeeperThan(']'.repeat(500))).toBe(false);
  });
});

describe('parseJson', () => {
  it('parses what JSON.parse parses, within the limit', () => {
    expect(parseJson('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(parseJson(nested(MAX_JSON_DEPTH, '{"k":', '}'))).toBeDefined();
  });

  it('refuses a value nested deeper with a SyntaxError that says why', () => {
    const err = (() => {
      try {
        parseJson(nested(10_000));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(JsonTooDeepError);
    expect(err).toBeInstanceOf(SyntaxError);
    expect((err as Error).message).toBe('nested deeper than 100 levels of arrays and objects (the limit)');
    expect(() => parseJson('{nope')).toThrow(SyntaxError);
  });
});

describe('jsonTextFlags', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  it('tells depth and compactness in one pass, looking only outside strings', () => {
    // [text, deeper than MAX_JSON_DEPTH, compact (no whitespace outside strings)]
    const cases: [string, boolean, boolean][] = [
      ['{"a":1}', false, true],
      ['{"a": 1}', false, false],
      ['{"s":"with spaces \\" and \\\\ inside"}', false, true],
      ['[1,\t2]', false, false],
      ['{"a":1}\r', false, false],
      [deep(MAX_JSON_DEPTH), false, true],
      [deep(MAX_JSON_DEPTH + 1), true, true],
      [`{"x": ${deep(MAX_JSON_DEPTH + 1)}}`, true, false],
      ['{"[[[[":"{{{{ "}', false, true],
      ['""', false, true],
    ];
    for (const [text, tooDeep, compact] of cases) {
      const flags = jsonTextFlags(text);
      expect([text, (flags & JSON_TOO_DEEP) !== 0, (flags & JSON_NOT_COMPACT) === 0]).toEqual([text, tooDeep, compact]);
      expect([text, nestsDeeperThan(text)]).toEqual([text, tooDeep]);
      if (!tooDeep) expect([text, isCompactJson(text)]).toEqual([text, compact]);
    }
  });
});
