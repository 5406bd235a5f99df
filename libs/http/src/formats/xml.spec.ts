import { createEncoder } from './index';
import { escapeXml, plainDecimal, XML_HEAD, XML_TAIL } from './xml';

// ---- A tiny, strict XML-RPC reader for the checks (elements + text, no attributes). ----
interface El {
  tag: string;
  children: El[];
  text: string;
}

function parseXml(doc: string): El {
  const decl = '<?xml version="1.0" encoding="UTF-8"?>\n';
  expect(doc.startsWith(decl)).toBe(true);
  const root: El = { tag: '#root', children: [], text: '' };
  const stack = [root];
  const re = /<(\/?)([A-Za-z][A-Za-z0-9]*)(\/?)>|([^<]+)/gy;
  let pos = decl.length;
  re.lastIndex = pos;
  for (let m = re.exec(doc); m; m = re.exec(doc)) {
    pos = re.lastIndex;
    const [, close, tag, selfClose, text] = m;
    const top = stack[stack.length - 1];
    if (text !== undefined) {
      expect(text).not.toMatch(/[>\r]|&(?!(amp|lt|gt|#\d+);)/); // escaped properly
      top.text += text.replace(/&(amp|lt|gt|#\d+);/g, (_e, n: string) =>
        n === 'amp' ? '&' : n === 'lt' ? '<' : n === 'gt' ? '>' : String.fromCodePoint(Number(n.slice(1))),
      );
    } else if (close) {
      expect(top.tag).toBe(tag);
      stack.pop();
    } else {
      const el: El = { tag, children: [], text: '' };
      top.children.push(el);
      if (!selfClose) stack.push(el);
    }
  }
  expect(pos).toBe(doc.length); // everything tokenised
  expect(stack).toHaveLength(1); // everything closed
  expect(root.children).toHaveLength(1);
  return root.children[0];
}

function only(el: El, tag: string): El {
  const kids = el.children;
  expect(kids.map((k) => k.tag)).toEqual([tag]);
  return kids[0];
}

type Decoded = null | boolean | string | number | { i4: number } | { double: string } | Decoded[] | { struct: [string, Decoded][] };

/** `<value>` → JS; ints and doubles are tagged so the test sees the XML-RPC type. */
function decodeValue(value: El): Decoded {
  expect(value.tag).toBe('value');
  const t = only(value, value.children[0]?.tag ?? '(none)');
  switch (t.tag) {
    case 'string':
      return t.text;
    case 'i4':
      expect(t.text).toMatch(/^-?\d+$/);
      return { i4: Number(t.text) };
    case 'double':
      expect(t.text).toMatch(/^-?\d+(\.\d+)?$/); // XML-RPC: no exponent
      return { double: t.text };
    case 'boolean':
      expect(['0', '1']).toContain(t.text);
      return t.text === '1';
    case 'nil':
      expect(t.children).toHaveLength(0);
      return null;
    case 'array':
      return only(t, 'data').children.map(decodeValue);
    case 'struct':
      return {
        struct: t.children.map((m) => {
          expect(m.tag).toBe('member');
          expect(m.children.map((c) => c.tag)).toEqual(['name', 'value']);
          return [m.children[0].text, decodeValue(m.children[1])] as [string, Decoded];
        }),
      };
    default:
      throw new Error(`unexpected element <${t.tag}>`);
  }
}

/** The records of a whole document. */
function decodeDocument(doc: string): Decoded[] {
  const root = parseXml(doc);
  expect(root.tag).toBe('methodResponse');
  const value = only(only(only(root, 'params'), 'param'), 'value');
  const data = only(only(value, 'array'), 'data');
  return data.children.map(decodeValue);
}

function render(records: string[]): string {
  const enc = createEncoder('xml');
  return [enc.head(), ...records.map((r) => enc.record(r)), enc.tail()].join('');
}

describe('xml encoder (XML-RPC types)', () => {
  it('has the XML content type', () => {
    expect(createEncoder('xml').contentType).toBe('application/xml; charset=UTF-8');
  });

  it('renders an empty result as a method response holding an empty array', () => {
    const doc = render([]);
    expect(doc).toBe(XML_HEAD + XML_TAIL);
    expect(doc).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse><params><param><value><array><data>\n' +
        '</data></array></value></param></params></methodResponse>\n',
    );
    expect(decodeDocument(doc)).toEqual([]);
  });

  it('renders one struct per record, one record per line, in order', () => {
    const doc = render(['{"id":3,"data":"data3","_key":"412118/79/3/3"}', '{"id":4}']);
    expect(doc.split('\n')).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<methodResponse><params><param><value><array><data>',
      '<value><struct><member><name>id</name><value><i4>3</i4></value></member>' +
        '<member><name>data</name><value><string>data3</string></value></member>' +
        '<member><name>_key</name><value><string>412118/79/3/3</string></value></member></struct></value>',
      '<value><struct><member><name>id</name><value><i4>4</i4></value></member></struct></value>',
      '</data></array></value></param></params></methodResponse>',
      '',
    ]);
  });

  it('maps every JSON type', () => {
    const record =
      '{"s":"x","i":-42,"big":1477663250347,"f":12.5,"one":1.0,"exp":1.5e-7,"t":true,"no":false,"n":null,' +
      '"arr":[1,"a",[]],"obj":{"10":{},"2":[null]},"empty":""}';
    expect(decodeDocument(render([record]))).toEqual([
      {
        struct: [
          ['s', 'x'],
          ['i', { i4: -42 }],
          ['big', { double: '1477663250347' }],
          ['f', { double: '12.5' }],
          ['one', { double: '1.0' }],
          ['exp', { double: '0.00000015' }],
          ['t', true],
          ['no', false],
          ['n', null],
          ['arr', [{ i4: 1 }, 'a', []]],
          ['obj', { struct: [['10', { struct: [] }], ['2', [null]]] }],
          ['empty', ''],
        ],
      },
    ]);
  });

  it('uses i4 exactly for the signed 32-bit range', () => {
    const doc = render(['[2147483647,-2147483648,2147483648,-2147483649,-0,12345678901234567890]']);
    expect(decodeDocument(doc)).toEqual([
      [{ i4: 2147483647 }, { i4: -2147483648 }, { double: '2147483648' }, { double: '-2147483649' }, { i4: 0 }, { double: '12345678901234567890' }],
    ]);
  });

  it('renders non-object records too', () => {
    expect(decodeDocument(render(['"plain"', '7', 'null']))).toEqual(['plain', { i4: 7 }, null]);
  });

  it('escapes markup and keeps text intact', () => {
    const nasty = 'a & b < c > d ]]> "q" \'a\' tab\tnl\ncr\r </string> é 😀';
    const doc = render([JSON.stringify({ [`<k&>`]: nasty })]);
    expect(doc).not.toContain('</string> é');
    expect(decodeDocument(doc)).toEqual([{ struct: [['<k&>', nasty]] }]);
  });

  it('replaces characters XML 1.0 cannot carry with U+FFFD', () => {
    expect(escapeXml('a\u0000b\u0008c\u000bd\u001fe\uffff\ud800f\ud83d\ude00')).toBe('a\ufffdb\ufffdc\ufffdd\ufffde\ufffd\ufffdf\ud83d\ude00');
  });

  it.each([
    ['1.5e-7', '0.00000015'],
    ['1e3', '1000.0'],
    ['-2.50E+2', '-250.0'],
    ['1.25e1', '12.5'],
    ['123.456e-2', '1.23456'],
    ['0e0', '0.0'],
    ['5E-1', '0.5'],
    ['12.5', '12.5'],
    ['7', '7'],
    ['1e99999', '1e99999'],
  ])('plainDecimal(%s) = %s', (raw, expected) => {
    expect(plainDecimal(raw)).toBe(expected);
    if (!raw.includes('99999')) expect(Number(expected)).toBe(Number(raw));
  });
});
