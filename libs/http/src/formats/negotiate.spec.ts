import { FormatError, negotiateFormat } from './index';
import { unescapeParam } from './negotiate';

function errorOf(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

describe('negotiateFormat: choosing the format', () => {
  it('defaults to jl without format= or Accept, and for an empty Accept', () => {
    expect(negotiateFormat({}, undefined)).toEqual({ format: 'jl' });
    expect(negotiateFormat({}, '')).toEqual({ format: 'jl' });
    expect(negotiateFormat({ format: '' }, '  ')).toEqual({ format: 'jl' });
  });

  it.each([
    ['json', 'json'],
    ['jl', 'jl'],
    ['xml', 'xml'],
    ['text', 'text'],
    ['msgpack', 'msgpack'],
    ['JSON', 'json'],
    [' xml ', 'xml'],
  ])('format=%j → %s', (value, expected) => {
    expect(negotiateFormat({ format: value }, undefined).format).toBe(expected);
  });

  it.each([
    ['application/x-jsonlines', 'jl'],
    ['application/json', 'json'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['text/plain', 'text'],
    ['application/x-msgpack', 'msgpack'],
    ['*/*', 'jl'],
    ['application/*', 'jl'],
    ['text/*', 'text'],
    ['Application/JSON; charset=utf-8', 'json'],
  ])('Accept: %s → %s', (accept, expected) => {
    expect(negotiateFormat({}, accept).format).toBe(expected);
  });

  it('Accept: text/csv selects csv (fields still come from the query)', () => {
    expect(negotiateFormat({ fields: 'a' }, 'text/csv').format).toBe('csv');
  });

  it('format= wins over Accept, even an unsupported Accept', () => {
    expect(negotiateFormat({ format: 'json' }, 'application/x-msgpack').format).toBe('json');
    expect(negotiateFormat({ format: 'jl' }, 'image/png').format).toBe('jl');
  });

  it('takes the first served type in Accept order; q ignored except q=0', () => {
    expect(negotiateFormat({}, 'text/html, application/json, application/xml').format).toBe('json');
    expect(negotiateFormat({}, 'application/xml;q=0.1, application/json;q=0.9').format).toBe('xml');
    expect(negotiateFormat({}, 'application/json;q=0, application/x-msgpack').format).toBe('msgpack');
    expect(negotiateFormat({}, 'application/json; q=0.0, */*').format).toBe('jl');
    expect(negotiateFormat({}, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8').format).toBe('xml');
  });

  it('uses the first format= value when repeated', () => {
    expect(negotiateFormat({ format: ['xml', 'json'] }, undefined).format).toBe('xml');
  });

  it('rejects an unknown format= with 400', () => {
    const e = errorOf(() => negotiateFormat({ format: 'yaml' }, 'application/json'));
    expect(e.status).toBe(400);
    expect(e.message).toContain('yaml');
  });

  it('rejects an Accept naming only unsupported types with 406', () => {
    for (const accept of ['text/html', 'image/png, application/pdf', 'application/json;q=0', '*/*;q=0']) {
      const e = errorOf(() => negotiateFormat({}, accept));
      expect(e.status).toBe(406);
      expect(e.message).toMatch(/^Not Acceptable/);
    }
  });

  it('does not attach csv options to other formats', () => {
    expect(negotiateFormat({ format: 'json', fields: 'a,b' }, undefined)).toEqual({ format: 'json' });
  });
});

describe('negotiateFormat: CSV parameters', () => {
  it('applies the defaults', () => {
    expect(negotiateFormat({ format: 'csv', fields: 'id,name' }, undefined)).toEqual({
      format: 'csv',
      csv: { fields: ['id', 'name'], includeHeaders: false, sep: ',', quote: '"', escape: '"', lineEnd: '\r\n' },
    });
  });

  it('requires fields (400)', () => {
    for (const q of [{ format: 'csv' }, { format: 'csv', fields: '' }, { format: 'csv', fields: ' , ' }]) {
      const e = errorOf(() => negotiateFormat(q, undefined));
      expect(e.status).toBe(400);
      expect(e.message).toContain('fields');
    }
    expect(errorOf(() => negotiateFormat({}, 'text/csv')).status).toBe(400);
  });

  it('trims names, drops empty ones and concatenates repeated fields=', () => {
    expect(negotiateFormat({ format: 'csv', fields: ['a, b', 'c,,d'] }, undefined).csv?.fields).toEqual(['a', 'b', 'c', 'd']);
  });

  it.each([
    ['1', true],
    ['Y', true],
    ['y', true],
    ['true', true],
    ['TRUE', true],
    ['yes', true],
    ['0', false],
    ['N', false],
    ['false', false],
    ['', false],
  ])('include_headers=%j → %s', (value, expected) => {
    expect(negotiateFormat({ format: 'csv', fields: 'a', include_headers: value }, undefined).csv?.includeHeaders).toBe(expected);
  });

  it('decodes backslash sequences and literal characters in sep/quote/escape/lineend', () => {
    const csv = negotiateFormat(
      { format: 'csv', fields: 'a', sep: '\\t', quote: "'", escape: '\\', lineend: '\\n' },
      undefined,
    ).csv;
    expect(csv).toMatchObject({ sep: '\t', quote: "'", escape: '\\', lineEnd: '\n' });
    expect(negotiateFormat({ format: 'csv', fields: 'a', sep: ';', lineend: '\\r\\n' }, undefined).csv).toMatchObject({
      sep: ';',
      lineEnd: '\r\n',
    });
    expect(negotiateFormat({ format: 'csv', fields: 'a', sep: '\t', lineend: '\n' }, undefined).csv).toMatchObject({
      sep: '\t',
      lineEnd: '\n',
    });
    expect(negotiateFormat({ format: 'csv', fields: 'a', sep: '|', escape: '\\\\' }, undefined).csv).toMatchObject({
      sep: '|',
      escape: '\\',
    });
  });

  it('rejects multi-character sep/quote/escape and quote == sep (400)', () => {
    for (const extra of [{ sep: ';;' }, { quote: "''" }, { escape: 'ab' }, { sep: "'", quote: "'" }]) {
      const e = errorOf(() => negotiateFormat({ format: 'csv', fields: 'a', ...extra }, undefined));
      expect(e.status).toBe(400);
    }
  });

  it('accepts a single astral character as sep', () => {
    expect(negotiateFormat({ format: 'csv', fields: 'a', sep: '🙂' }, undefined).csv?.sep).toBe('🙂');
  });
});

describe('unescapeParam', () => {
  it.each([
    ['\\t', '\t'],
    ['\\n', '\n'],
    ['\\r\\n', '\r\n'],
    ['\\\\', '\\'],
    ['\\x1f', '\x1f'],
    ['\\u00e9', 'é'],
    ['\\', '\\'],
    ['\\q', '\\q'],
    [';', ';'],
  ])('%j → %j', (input, expected) => {
    expect(unescapeParam(input)).toBe(expected);
  });
});
