import {
  CollectionInputError, collectionTypeOf, compareKeys, hasNonFiniteLiteral, isValidKey, keyAfter, numberLiteralOutOfRange, numberOutOfRange,
  packCollectionLine, parseCollectionLine, prefixEnd, unpackCollectionLine, withMeta,
} from './collection-record';

const refused = (text: string, lineNo = 1): CollectionInputError => {
  try {
    parseCollectionLine(text, lineNo);
  } catch (e) {
    return e as CollectionInputError;
  }
  throw new Error(`accepted: ${text}`);
};

describe('collection records', () => {
  it('splits a line into its key and its record without _key, keeping field order', () => {
    expect(parseCollectionLine('{"_key":"a","z":1,"b":[1.0,2]}', 1)).toEqual({ key: 'a', json: '{"z":1,"b":[1.0,2]}' });
    expect(parseCollectionLine('{"z":1,"_key":"a"}', 1)).toEqual({ key: 'a', json: '{"z":1}' });
    expect(parseCollectionLine('{"_key":"a"}', 1)).toEqual({ key: 'a', json: '{}' });
    // Not compact, or _key in the middle: re-serialised compactly.
    expect(parseCollectionLine('{"_key": "a", "value": 1.5}', 1)).toEqual({ key: 'a', json: '{"value":1.5}' });
    expect(parseCollectionLine('{"x":1,"_key":"k","y":"é"}', 1)).toEqual({ key: 'k', json: '{"x":1,"y":"é"}' });
    expect(parseCollectionLine('{"_key":"a/b \\"q\\""}', 1).key).toBe('a/b "q"');
  });

  it('refuses a missing _key with the original message, and a key that is not a non-empty string', () => {
    const e = refused('{"value":1}', 3);
    expect(e.status).toBe(400);
    expect(e.message).toBe('Error parsing data, missing value for _key field');
    expect(refused('{"_key":null}').message).toBe('Error parsing data, missing value for _key field');
    for (const bad of ['[]', '""', '1', '{"a":1}', 'true']) {
      const err = refused(`{"_key":${bad}}`, 2);
      expect(err.status).toBe(400);
      expect(err.message).toBe('Error parsing data, line 2: _key must be a non-empty string');
    }
    expect(refused('{"_key":"\\ud800"}').message).toMatch(/_key must be/);
    expect(isValidKey('\ud83d\ude00')).toBe(true);
  });

  it('refuses malformed JSON and lines that are not objects, naming the line', () => {
    expect(refused('{"_key":', 4).message).toMatch(/^Error parsing data, line 4: invalid JSON/);
    expect(refused('[1,2]', 5).message).toBe('Error parsing data, line 5: a collection record must be a JSON object');
    expect(refused('"k"', 5).status).toBe(400);
  });

  it('refuses Infinity and NaN literals (what Python json emits) and numbers beyond 2^64 - 1', () => {
    expect(refused('{"_key": "a", "v": Infinity}', 2).message).toBe('Error parsing data, line 2: infinite and NaN values are not supported');
    expect(refused('{"_key": "a", "v": [-Infinity]}').message).toMatch(/infinite and NaN/);
    expect(refused('{"_key": "a", "v": NaN}').message).toMatch(/infinite and NaN/);
    expect(hasNonFiniteLiteral('{"_key": "Infinity", "v": 1')).toBe(false);
    expect(refused('{"_key":"a","v":{"deep":[1e20]}}', 7).message).toMatch(/^Error parsing data, line 7: number 100000000000000000000 out of range/);
    expect(refused('{"_key":"a","v":-1e300}').status).toBe(400);
    expect(refused('{"_key":"a","v":1e400}').status).toBe(400);
    expect(parseCollectionLine('{"_key":"a","v":18446744073709551615,"w":-1.8e19}', 1).key).toBe('a');
    expect(numberOutOfRange({ a: [1, { b: 2 ** 64 + 4096 }] })).toBe(2 ** 64 + 4096);
    // 2^64 - 1 and 2^64 are the same double: the limit holds on the number as written.
    expect(parseCollectionLine('{"_key":"a","v":[-18446744073709551615]}', 1).key).toBe('a');
    expect(refused('{"_key":"a","v":18446744073709551616}', 3).message).toBe('Error parsing data, line 3: number 18446744073709551616 out of range (the largest magnitude allowed is 2^64 - 1)');
    expect(refused('{"_key":"a","v":-18446744073709552000}').message).toMatch(/number -18446744073709552000 out of range/);
    expect(refused('{"_key":"a","s":"18446744073709551616","v":[18446744073709551615,1.8446744073709552e19]}').message).toMatch(/number 1.8446744073709552e19 out of range/);
    expect(numberLiteralOutOfRange('{"a":"1e999","b":[1,2e3]}')).toBeNull();
    expect(numberOutOfRange({ a: [1, 'x', null] })).toBeUndefined();
  });

  it('packs a record into one compact JSON array line and back', () => {
    for (const key of ['a', 'with "quotes" and \\ slash', 'é ☃ 😀', 'a/b']) {
      const r = { key, json: '{"v":"[x]","w":{}}' };
      const line = packCollectionLine(r);
      expect(JSON.parse(line)).toEqual([key, { v: '[x]', w: {} }]);
      expect(unpackCollectionLine(line)).toEqual(r);
    }
  });

  it('orders keys by UTF-8 bytes and bounds prefixes', () => {
    const keys = ['my_key_2', 'my_key_10', 'my_key_1', 'B', 'a', '\ue000', '😀', 'é'];
    expect([...keys].sort(compareKeys)).toEqual(['B', 'a', 'my_key_1', 'my_key_10', 'my_key_2', 'é', '\ue000', '😀']);
    expect(prefixEnd('my_key_1')).toBe('my_key_2');
    expect(prefixEnd('a\ud7ff')).toBe('a\ue000');
    expect(prefixEnd('a\u{10ffff}')).toBe('b');
    expect(prefixEnd('\u{10ffff}')).toBeNull();
    expect(compareKeys(keyAfter('a'), 'a')).toBeGreaterThan(0);
    expect(compareKeys(keyAfter('a'), 'a\u0001')).toBeLessThan(0);
  });

  it('validates types (names follow storageNameProblem, libs/contracts)', () => {
    expect(['s', 'cs', 'vs', 'vcs', 'x', 'S'].map(collectionTypeOf)).toEqual(['s', 'cs', 'vs', 'vcs', null, null]);
  });

  it('appends meta fields last', () => {
    const r = { key: 'k"1', ts: 123, json: '{"b":1,"a":2}' };
    expect(withMeta(r, { key: false, ts: false, nodata: false })).toBe('{"b":1,"a":2}');
    expect(withMeta(r, { key: true, ts: true, nodata: false })).toBe('{"b":1,"a":2,"_key":"k\\"1","_ts":123}');
    expect(withMeta(r, { key: true, ts: false, nodata: true })).toBe('{"_key":"k\\"1"}');
    expect(withMeta({ ...r, json: '{}' }, { key: false, ts: true, nodata: false })).toBe('{"_ts":123}');
  });
});
