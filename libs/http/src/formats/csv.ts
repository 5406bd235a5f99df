import { JsonNumber, JsonObject, JsonValue, parseJson, stringifyJson } from './json-tree';
import { CsvOptions } from './types';

/**
 * CSV rows.
 *
 * - Columns are `fields`, in order, looked up as **top-level** member names of each
 *   record (no dotted paths); a record that is not an object gives an all-empty row.
 * - Cells: string → the string; number → its JSON text as written (`12.50`, `1e3`,
 *   big integers in full); true/false → `true`/`false`; object/array → compact JSON
 *   (`{"a":1}`, member order kept); null or missing → empty cell.
 * - A cell is quoted when it contains the separator, the quote character, CR or LF (or
 *   the escape character when that differs from the quote). Inside a quoted cell each
 *   quote character is preceded by the escape character: with the default escape (= the
 *   quote) that is RFC 4180 doubling (`a"b` → `"a""b"`); with another escape, e.g. `\`,
 *   the escape character itself is escaped too (`a"b\c` → `"a\"b\\c"`). Empty cells are
 *   never quoted.
 * - The optional header row holds the field names, quoted by the same rule.
 * - `lineEnd` (default `\r\n`) ends every row, including the last.
 */
export class CsvWriter {
  private readonly needsQuote: (s: string) => boolean;
  private readonly escapeRe: RegExp;
  private readonly escapeWith: string;

  constructor(private readonly opts: CsvOptions) {
    const { sep, quote, escape } = opts;
    const specials = [sep, quote, '\r', '\n'];
    if (escape !== quote) specials.push(escape);
    this.needsQuote = (s) => {
      for (const c of specials) if (s.includes(c)) return true;
      return false;
    };
    const toEscape = escape === quote ? [quote] : [escape, quote];
    this.escapeRe = new RegExp(toEscape.map(reEscape).join('|'), 'g');
    this.escapeWith = escape;
  }

  header(): string {
    return this.opts.includeHeaders ? this.row(this.opts.fields) : '';
  }

  /** One record (JSON text) as a CSV row, line end included. */
  record(json: string): string {
    const v = parseJson(json);
    const fields = this.opts.fields;
    const cells = new Array<string>(fields.length);
    const obj = v instanceof JsonObject ? v : undefined;
    for (let i = 0; i < fields.length; i++) {
      const m = obj?.get(fields[i]);
      cells[i] = m === undefined ? '' : cellText(m);
    }
    return this.row(cells);
  }

  private row(cells: string[]): string {
    let s = '';
    for (let i = 0; i < cells.length; i++) {
      if (i) s += this.opts.sep;
      s += this.cell(cells[i]);
    }
    return s + this.opts.lineEnd;
  }

  private cell(s: string): string {
    if (s === '' || !this.needsQuote(s)) return s;
    const q = this.opts.quote;
    return q + s.replace(this.escapeRe, (c) => this.escapeWith + c) + q;
  }
}

function cellText(v: JsonValue): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof JsonNumber) return v.raw;
  return stringifyJson(v);
}

function reEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
