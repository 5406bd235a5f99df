import { isCompactJson } from '@crawlhub/http';
import { normalizeRecord, RecordError } from './record-kinds';

describe('normalizeRecord', () => {
  it('keeps item field order and compacts the JSON', () => {
    expect(normalizeRecord('items', { b: 1, a: { c: [1, 2] } }).json).toBe('{"b":1,"a":{"c":[1,2]}}');
  });
  it('keeps a compact item text as written (number spellings included), re-serialises any other', () => {
    expect(normalizeRecord('items', JSON.parse('{"a":1.0,"b":"x y"}'), '{"a":1.0,"b":"x y"}').json).toBe('{"a":1.0,"b":"x y"}');
    expect(normalizeRecord('items', JSON.parse('{"a": 1}'), '{"a": 1}').json).toBe('{"a":1}');
    expect(isCompactJson('{"s":"quote \\" and space"}')).toBe(true);
    expect(isCompactJson('{"s":"x", "t":1}')).toBe(false);
  });
  it.each([
    ['{"a":"b"}', true],
    ['{"s":"ends in a backslash \\\\","t":1}', true],
    ['{"s":"ends in a backslash \\\\", "t":1}', false],
    ['{"s":"escaped \\" quote, then","t": 1}', false],
    ['{"s":"tab\\tand\\nnewline escaped","t":[1,2]}', true],
    [' {"a":1}', false],
    ['{"a":1}\r', false],
    ['["x",\t"y"]', false],
    ['"just a string with spaces"', true],
    ['123', true],
  ])('isCompactJson(%s) is %s', (text, compact) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(isCompactJson(text)).toBe(compact);
  });
  it('puts log fields in schema order and counts by level', () => {
    const r = normalizeRecord('logs', { message: 'hi', extra: 1, level: 20, time: 5 });
    expect(r.json).toBe('{"time":5,"level":20,"message":"hi","extra":1}');
    expect(r.countKeys).toEqual(['20']);
    expect(r.size).toBe(3);
  });
  it('drops null request fields and keeps schema order', () => {
    const r = normalizeRecord('requests', { url: 'http://x', method: 'GET', status: 200, rs: 3, duration: 1, time: 9, parent: null, fp: null });
    expect(r.json).toBe('{"time":9,"duration":1,"status":200,"method":"GET","rs":3,"url":"http://x"}');
    expect(r.countKeys.sort()).toEqual(['duration', 'method', 'rs', 'status', 'url']);
  });
  it('refuses records of the wrong shape', () => {
    expect(() => normalizeRecord('items', [1])).toThrow(RecordError);
    expect(() => normalizeRecord('logs', { message: 'x' })).toThrow('level');
    expect(() => normalizeRecord('requests', { url: 'x' })).toThrow('time');
  });
});
