import { JsonNumber, JsonObject, parseJson, stringifyJson } from './json-tree';

describe('parseJson / stringifyJson', () => {
  it.each([
    '{"id":3,"data":"data3","_key":"412118/79/3/3"}',
    '{"b":1,"2":2,"1":3,"a":{"10":true,"9":false}}',
    '[1,-2,3.5,1.0,1e3,-0,12345678901234567890123,null,"x",[],{}]',
    '{"a":1,"a":2}',
    '"just a string"',
    '{"s":"quote \\" backslash \\\\ nl \\n tab \\t ctl \\u0001 uni é 😀"}',
  ])('round-trips %s', (text) => {
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it('keeps member order (integer-like keys included) and number lexemes', () => {
    const v = parseJson('{"z":1,"10":2.50,"2":99999999999999999999}') as JsonObject;
    expect(v.keys).toEqual(['z', '10', '2']);
    expect((v.values[1] as JsonNumber).raw).toBe('2.50');
    expect((v.values[2] as JsonNumber).raw).toBe('99999999999999999999');
  });

  it('re-serialises strings as JSON.stringify does', () => {
    const text = '"\\u00e9\\/\\ud83d\\ude00"';
    expect(stringifyJson(parseJson(text))).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('decodes strings like JSON.parse', () => {
    const text = '"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u0000\\u20ac\\ud83d\\ude00 é"';
    expect(parseJson(text)).toBe(JSON.parse(text));
  });

  it('get() returns the last duplicate, like JSON.parse', () => {
    const v = parseJson('{"a":1,"a":"two"}') as JsonObject;
    expect(v.get('a')).toBe('two');
    expect(v.get('b')).toBeUndefined();
  });

  it('tolerates whitespace', () => {
    expect(stringifyJson(parseJson(' { "a" : [ 1 , 2 ] } '))).toBe('{"a":[1,2]}');
  });

  it.each(['', '{', '{"a":}', '[1,]', '01', '1.', '-', 'tru', '"abc', '{"a":1}x', '"\\x"', '{a:1}', '"\\u12"'])(
    'rejects %j',
    (text) => {
      expect(() => parseJson(text)).toThrow(SyntaxError);
    },
  );
});
