import { decodeRequestLine, deletedIds, FrontierInputError, MAX_FP_BYTES, requestLine } from './requests';

const refused = (value: unknown, line = 3) => {
  try {
    requestLine(value, line);
  } catch (e) {
    expect(e).toBeInstanceOf(FrontierInputError);
    return (e as FrontierInputError).message;
  }
  throw new Error('accepted');
};

describe('requestLine', () => {
  it('encodes fp, p, qdata and fdata compactly, trailing nulls left out', () => {
    expect(requestLine({ fp: '/' }, 1)).toBe('["/",0]');
    expect(requestLine({ fp: 'a', p: 3, qdata: { depth: 1 } }, 1)).toBe('["a",3,{"depth":1}]');
    expect(requestLine({ fp: 'a', fdata: 'x' }, 1)).toBe('["a",0,null,"x"]');
    expect(requestLine({ fp: 'a', p: null, qdata: null, fdata: null, other: 1 }, 1)).toBe('["a",0]');
  });

  it('round-trips through decodeRequestLine', () => {
    const line = requestLine({ fp: 'é\n"', p: 255, qdata: [1, null, 'q'], fdata: { f: true } }, 1);
    expect(decodeRequestLine(line)).toEqual({ fp: 'é\n"', p: 255, qdata: [1, null, 'q'], fdata: { f: true } });
    expect(decodeRequestLine('["x",0]')).toEqual({ fp: 'x', p: 0, qdata: null, fdata: null });
  });

  it('refuses anything but an object with a non-empty string fp, naming the line', () => {
    expect(refused('"a string"')).toContain('line 3');
    expect(refused([{ fp: 'a' }])).toContain('JSON object');
    expect(refused(null)).toContain('JSON object');
    expect(refused({})).toContain('fp');
    expect(refused({ fp: '' })).toContain('fp');
    expect(refused({ fp: 12 })).toContain('fp');
    expect(refused({ fp: 'x'.repeat(MAX_FP_BYTES + 1) })).toContain(`${MAX_FP_BYTES} bytes`);
    expect(requestLine({ fp: 'x'.repeat(MAX_FP_BYTES) }, 1)).toHaveLength(MAX_FP_BYTES + 6);
  });

  it('refuses a p that is not an integer from 0 to 255', () => {
    for (const p of [-1, 256, 1.5, '1', true, [0]]) expect(refused({ fp: 'a', p }, 9)).toContain('line 9: p must be an integer from 0 to 255');
    expect(requestLine({ fp: 'a', p: 0 }, 1)).toBe('["a",0]');
  });
});

describe('deletedIds', () => {
  it('takes a string or an array of strings', () => {
    expect(deletedIds('abc', 1)).toEqual(['abc']);
    expect(deletedIds(['a', 'b'], 1)).toEqual(['a', 'b']);
    expect(deletedIds([], 1)).toEqual([]);
  });

  it('refuses anything else', () => {
    for (const v of [1, null, { id: 'a' }, ['a', 2]]) expect(() => deletedIds(v, 4)).toThrow('line 4');
  });
});
