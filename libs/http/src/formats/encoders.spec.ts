import * as tree from './json-tree';
import { CONTENT_TYPES, createEncoder, RecordEncoder, ResultFormat, textLine } from './index';

function render(enc: RecordEncoder, records: string[]): string {
  const parts = [enc.head(), ...records.map((r) => enc.record(r)), enc.tail()];
  return parts.map((p) => (typeof p === 'string' ? p : p.toString('utf8'))).join('');
}

afterEach(() => jest.restoreAllMocks());

describe('content types', () => {
  it.each([
    ['jl', 'application/x-jsonlines; charset=UTF-8'],
    ['json', 'application/json; charset=UTF-8'],
    ['xml', 'application/xml; charset=UTF-8'],
    ['text', 'text/plain; charset=UTF-8'],
    ['msgpack', 'application/x-msgpack; charset=UTF-8'],
  ])('%s → %s', (format, type) => {
    expect(createEncoder(format as ResultFormat).contentType).toBe(type);
    expect(CONTENT_TYPES[format as ResultFormat]).toBe(type);
  });

  it('rejects an unknown format', () => {
    expect(() => createEncoder('yaml' as ResultFormat)).toThrow(TypeError);
  });
});

describe('jl encoder', () => {
  it('writes each record untouched + \\n, including the last; empty → empty body', () => {
    const records = ['{"id":3,"data":"data3","_key":"412118/79/3/3"}', '{"b":1,"2":2}', '{"x":1.0,"y":"é\\u00e9"}'];
    expect(render(createEncoder('jl'), records)).toBe(records.join('\n') + '\n');
    expect(render(createEncoder('jl'), [])).toBe('');
  });

  it('never parses: even text that is not JSON passes through, and JSON.parse is not called', () => {
    const parse = jest.spyOn(JSON, 'parse');
    const ours = jest.spyOn(tree, 'parseJson');
    const enc = createEncoder('jl');
    expect(enc.record('{not json')).toBe('{not json\n');
    expect(enc.record('{"a":1}')).toBe('{"a":1}\n');
    expect(parse).not.toHaveBeenCalled();
    expect(ours).not.toHaveBeenCalled();
  });
});

describe('json encoder', () => {
  it('writes one compact array, records untouched', () => {
    const records = ['{"_key":"28144/1/1/0"}', '{"_key":"28144/1/1/1"}', '{"b":1,"2":[1.0]}'];
    const out = render(createEncoder('json'), records);
    expect(out).toBe('[{"_key":"28144/1/1/0"},{"_key":"28144/1/1/1"},{"b":1,"2":[1.0]}]');
    expect(JSON.parse(out)).toEqual(records.map((r) => JSON.parse(r)));
  });

  it('writes [] for no records and [r] for one', () => {
    expect(render(createEncoder('json'), [])).toBe('[]');
    expect(render(createEncoder('json'), ['{"a":1}'])).toBe('[{"a":1}]');
  });

  it('does not parse records', () => {
    const parse = jest.spyOn(JSON, 'parse');
    const ours = jest.spyOn(tree, 'parseJson');
    render(createEncoder('json'), ['{"a":1}', '{"b":2}']);
    expect(parse).not.toHaveBeenCalled();
    expect(ours).not.toHaveBeenCalled();
  });

  it('keeps state per encoder (one encoder per response)', () => {
    const a = createEncoder('json');
    const b = createEncoder('json');
    expect([a.head(), a.record('1'), a.record('2'), a.tail()].join('')).toBe('[1,2]');
    expect([b.head(), b.record('3'), b.tail()].join('')).toBe('[3]');
  });
});

describe('text encoder', () => {
  it('renders log records as their message, one per line', () => {
    const logs = [
      '{"_key":"1/2/3/0","time":1556059764461,"level":20,"message":"simple-msg1"}',
      '{"time":1556059764462,"level":40,"message":"Traceback:\\n  line 1","_ts":1}',
      '{"message":"bare"}',
    ];
    expect(render(createEncoder('text'), logs)).toBe('simple-msg1\nTraceback:\n  line 1\nbare\n');
  });

  it('renders other records as their compact JSON text, untouched', () => {
    const items = [
      '{"id":3,"data":"data3"}',
      '{"message":"hi","author":"x"}', // an item that happens to have a message field
      '{"time":1,"level":20,"message":null}',
      '{"time":1,"level":20,"message":{"nested":true}}',
      '["message"]',
      '"message"',
      '{"b":1,"2":2}',
    ];
    expect(render(createEncoder('text'), items)).toBe(items.join('\n') + '\n');
  });

  it('empty result → empty body', () => {
    expect(render(createEncoder('text'), [])).toBe('');
  });

  it('textLine only parses records that mention "message"', () => {
    const ours = jest.spyOn(tree, 'parseJson');
    expect(textLine('{"a":1}')).toBe('{"a":1}');
    expect(ours).not.toHaveBeenCalled();
    expect(textLine('{"message":"m"}')).toBe('m');
    expect(ours).toHaveBeenCalledTimes(1);
  });
});
