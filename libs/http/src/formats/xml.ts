import { JsonNumber, JsonValue, isIntegerLexeme, parseJson } from './json-tree';

/**
 * XML output ("XML-RPC data types").
 *
 * Document shape: a standard XML-RPC method response whose single parameter is an
 * array holding one value per record, so any XML-RPC library reads the whole body
 * (Python: `xmlrpc.client.loads(body)[0][0]` is the list of records):
 *
 * ```
 * <?xml version="1.0" encoding="UTF-8"?>
 * <methodResponse><params><param><value><array><data>
 * <value><struct><member><name>id</name><value><i4>3</i4></value></member>…</struct></value>
 * …one line per record…
 * </data></array></value></param></params></methodResponse>
 * ```
 * An empty result is the same document with no record lines.
 *
 * Types (JSON → XML-RPC):
 * - object → `<struct>` of `<member><name>k</name><value>…</value></member>`, in the
 *   order written (duplicate names kept); `{}` → `<struct></struct>`;
 * - array → `<array><data><value>…</value>…</data></array>`;
 * - string → `<string>…</string>` (always typed, never a bare `<value>text</value>`);
 * - integer (no fraction/exponent) in the signed 32-bit range → `<i4>`; other integers
 *   (e.g. millisecond timestamps) → `<double>` holding the exact digits;
 * - other numbers → `<double>`, in plain decimal notation (XML-RPC has no exponent
 *   form: `1.5e-7` → `0.00000015`, exact digits; only exponents beyond ±1000 are kept
 *   as written);
 * - true/false → `<boolean>1</boolean>` / `<boolean>0</boolean>`;
 * - null → `<nil/>` (the common XML-RPC extension; Python reads it).
 *
 * Text escaping: `&` `<` `>` become `&amp;` `&lt;` `&gt;`; CR becomes `&#13;` (a raw CR
 * would be turned into LF by XML parsers); characters XML 1.0 cannot carry at all
 * (C0 controls other than TAB/LF/CR, U+FFFE, U+FFFF, unpaired surrogates) become
 * U+FFFD.
 */
export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse><params><param><value><array><data>\n';
export const XML_TAIL = '</data></array></value></param></params></methodResponse>\n';

/** One record as an XML-RPC `<value>` element followed by `\n`. */
export function xmlRecord(json: string): string {
  return xmlValue(parseJson(json)) + '\n';
}

export function xmlValue(v: JsonValue): string {
  if (v === null) return '<value><nil/></value>';
  if (typeof v === 'string') return '<value><string>' + escapeXml(v) + '</string></value>';
  if (typeof v === 'boolean') return v ? '<value><boolean>1</boolean></value>' : '<value><boolean>0</boolean></value>';
  if (v instanceof JsonNumber) return '<value>' + xmlNumber(v.raw) + '</value>';
  if (Array.isArray(v)) {
    let s = '<value><array><data>';
    for (let i = 0; i < v.length; i++) s += xmlValue(v[i]);
    return s + '</data></array></value>';
  }
  let s = '<value><struct>';
  for (let i = 0; i < v.keys.length; i++) {
    s += '<member><name>' + escapeXml(v.keys[i]) + '</name>' + xmlValue(v.values[i]) + '</member>';
  }
  return s + '</struct></value>';
}

const I4_MIN = -2147483648;
const I4_MAX = 2147483647;

function xmlNumber(raw: string): string {
  if (isIntegerLexeme(raw)) {
    if (raw.length <= 11) {
      const n = Number(raw);
      if (n >= I4_MIN && n <= I4_MAX) return '<i4>' + (n === 0 ? '0' : raw) + '</i4>';
    }
    return '<double>' + raw + '</double>';
  }
  return '<double>' + plainDecimal(raw) + '</double>';
}

/**
 * A JSON number lexeme in plain decimal notation (no exponent), exactly: the digits
 * are shifted, never rounded through a float.
 */
export function plainDecimal(raw: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!m) throw new SyntaxError(`not a JSON number: ${raw}`);
  const [, sign, intPart, frac = '', expText] = m;
  if (expText === undefined) return raw;
  const exp = Number(expText);
  let digits = intPart + frac;
  // Exponents beyond any double's range would make huge strings: keep those as written.
  if (Math.abs(exp) > 1000) return raw;
  let point = intPart.length + exp; // position of the decimal point within `digits`
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits = digits + '0'.repeat(point - digits.length);
  }
  let ip = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  let fp = digits.slice(point).replace(/0+$/, '');
  if (ip === '') ip = '0';
  if (fp === '') fp = '0';
  return sign + ip + '.' + fp;
}

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;
// eslint-disable-next-line no-control-regex
const ESCAPE_ALL = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;

export function escapeXml(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replace(ESCAPE_ALL, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '\r':
        return '&#13;';
      default:
        return '\uFFFD';
    }
  });
}
