import { CSV_DEFAULTS, CsvOptions, createEncoder, negotiateFormat } from './index';

function render(records: string[], opts: Partial<CsvOptions> & { fields: string[] }): string {
  const enc = createEncoder('csv', { ...CSV_DEFAULTS, ...opts });
  return [enc.head(), ...records.map((r) => enc.record(r)), enc.tail()].join('');
}

/** A small reader for what the writer promises (single-character sep/quote/escape). */
function readCsv(text: string, o: CsvOptions): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    if (quoted) {
      const c = text[i];
      if (c === o.escape && o.escape !== o.quote && i + 1 < text.length) {
        cell += text[i + 1];
        i += 2;
      } else if (c === o.quote && o.escape === o.quote && text[i + 1] === o.quote) {
        cell += c;
        i += 2;
      } else if (c === o.quote) {
        quoted = false;
        i++;
      } else {
        cell += c;
        i++;
      }
    } else if (text.startsWith(o.lineEnd, i)) {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += o.lineEnd.length;
    } else if (text.startsWith(o.sep, i)) {
      row.push(cell);
      cell = '';
      i += o.sep.length;
    } else if (text[i] === o.quote && cell === '') {
      quoted = true;
      i++;
    } else {
      cell += text[i++];
    }
  }
  expect(cell).toBe(''); // every row is terminated
  expect(row).toEqual([]);
  return rows;
}

describe('csv encoder', () => {
  it('has the CSV content type', () => {
    expect(createEncoder('csv', { ...CSV_DEFAULTS, fields: ['a'] }).contentType).toBe('text/csv; charset=UTF-8');
  });

  it('needs CsvOptions', () => {
    expect(() => createEncoder('csv')).toThrow(TypeError);
  });

  it('writes the fields in order, header first when asked, CRLF after every row', () => {
    const records = ['{"id":1,"name":"a","extra":true}', '{"name":"b","id":2}'];
    expect(render(records, { fields: ['id', 'name'] })).toBe('1,a\r\n2,b\r\n');
    expect(render(records, { fields: ['name', 'id'], includeHeaders: true })).toBe('name,id\r\na,1\r\nb,2\r\n');
    expect(render([], { fields: ['id'], includeHeaders: true })).toBe('id\r\n');
    expect(render([], { fields: ['id'] })).toBe('');
  });

  it('renders values: missing/null empty, numbers as written, booleans, compact JSON for objects/arrays', () => {
    const rec = '{"s":"text","n":12.50,"i":-3,"big":12345678901234567890,"t":true,"f":false,"z":null,"o":{"2":1,"1":[1,"x"]},"a":[]}';
    expect(render([rec], { fields: ['s', 'n', 'i', 'big', 't', 'f', 'z', 'missing', 'o', 'a'] })).toBe(
      'text,12.50,-3,12345678901234567890,true,false,,,"{""2"":1,""1"":[1,""x""]}",[]\r\n',
    );
  });

  it('gives an all-empty row for a record that is not an object', () => {
    expect(render(['[1,2]', '"x"'], { fields: ['a', 'b'] })).toBe(',\r\n,\r\n');
  });

  it('quotes only when needed, RFC 4180 style by default', () => {
    const cases: [string, string][] = [
      ['plain', 'plain'],
      ['', ''],
      ['with space', 'with space'],
      ['a,b', '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ['"', '""""'],
      ['line1\nline2', '"line1\nline2"'],
      ['cr\rhere', '"cr\rhere"'],
      ["it's", "it's"],
      ['back\\slash', 'back\\slash'],
    ];
    for (const [value, cell] of cases) {
      expect(render([JSON.stringify({ v: value })], { fields: ['v'] })).toBe(cell + '\r\n');
    }
  });

  it('quotes header names by the same rule', () => {
    expect(render([], { fields: ['a,b', 'c"d'], includeHeaders: true })).toBe('"a,b","c""d"\r\n');
  });

  it('uses a distinct escape character for quotes and for itself', () => {
    const opts = { fields: ['v'], escape: '\\' };
    expect(render(['{"v":"a\\"b"}'], opts)).toBe('"a\\"b"\r\n');
    expect(render(['{"v":"a\\\\b"}'], opts)).toBe('"a\\\\b"\r\n');
    expect(render(['{"v":"a,b"}'], opts)).toBe('"a,b"\r\n');
  });

  it('honours sep, quote and lineEnd', () => {
    const opts = { fields: ['a', 'b'], sep: '\t', quote: "'", lineEnd: '\n', escape: "'" };
    expect(render(['{"a":"x,y","b":"it\'s\\tok"}'], opts)).toBe("x,y\t'it''s\tok'\n");
  });

  const tricky = [
    'plain',
    '',
    'a,b',
    'say "hi"',
    '"',
    '""',
    'multi\nline\r\nvalue',
    'tab\there',
    "quote'single",
    'back\\slash\\',
    '\\"',
    'é 😀 ümlaut',
    ';|\t',
  ];
  const option_sets: Partial<CsvOptions>[] = [
    {},
    { sep: ';' },
    { sep: '\t', lineEnd: '\n' },
    { sep: '|', quote: "'", escape: "'" },
    { escape: '\\' },
    { sep: ';', quote: "'", escape: '\\', lineEnd: '\n' },
  ];
  it.each(option_sets.map((o) => [JSON.stringify(o), o]))('round-trips tricky values with %s', (_name, o) => {
    const opts: CsvOptions = { ...CSV_DEFAULTS, ...o, fields: ['k', 'v', 'w'], includeHeaders: true };
    const records = tricky.map((v, i) => JSON.stringify({ w: i, k: `key${i}`, v }));
    const rows = readCsv(render(records, opts), opts);
    expect(rows).toEqual([['k', 'v', 'w'], ...tricky.map((v, i) => [`key${i}`, v, String(i)])]);
  });

  it('works end to end from query parameters', () => {
    const { format, csv } = negotiateFormat(
      { format: 'csv', fields: 'id,msg', include_headers: 'Y', sep: '\\t', lineend: '\\n' },
      undefined,
    );
    const enc = createEncoder(format, csv);
    expect([enc.head(), enc.record('{"msg":"a\\tb","id":1}'), enc.tail()].join('')).toBe('id\tmsg\n1\t"a\tb"\n');
  });
});
