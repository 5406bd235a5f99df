import { CsvWriter } from './csv';
import { JsonObject, parseJson } from './json-tree';
import { MsgpackWriter } from './msgpack';
import { CsvOptions, RecordEncoder, ResultFormat } from './types';
import { XML_HEAD, XML_TAIL, xmlRecord } from './xml';

export const CONTENT_TYPES: Readonly<Record<ResultFormat, string>> = {
  jl: 'application/x-jsonlines; charset=UTF-8',
  json: 'application/json; charset=UTF-8',
  xml: 'application/xml; charset=UTF-8',
  csv: 'text/csv; charset=UTF-8',
  text: 'text/plain; charset=UTF-8',
  msgpack: 'application/x-msgpack; charset=UTF-8',
};

/**
 * An encoder for one response. Shapes:
 * - jl: each record's JSON text untouched + `\n` (every line, including the last;
 *   empty result → empty body). No parsing at all.
 * - json: `[r1,r2,…]` with the records' texts untouched, no spaces, no trailing
 *   newline; empty → `[]`.
 * - msgpack: concatenated maps, no wrapper (see `msgpack.ts`).
 * - xml: one XML-RPC document (see `xml.ts`).
 * - csv: rows (see `csv.ts`); `csv` options are required.
 * - text: one line per record, `\n`-terminated (see `textLine`).
 */
export function createEncoder(format: ResultFormat, csv?: CsvOptions): RecordEncoder {
  switch (format) {
    case 'jl':
      return new JlEncoder();
    case 'json':
      return new JsonArrayEncoder();
    case 'msgpack':
      return new MsgpackEncoder();
    case 'xml':
      return new XmlEncoder();
    case 'csv':
      if (!csv) throw new TypeError('createEncoder: csv format needs CsvOptions');
      return new CsvEncoder(csv);
    case 'text':
      return new PlainTextEncoder();
    default:
      throw new TypeError(`createEncoder: unknown format ${String(format)}`);
  }
}

class JlEncoder implements RecordEncoder {
  readonly contentType = CONTENT_TYPES.jl;
  head(): string {
    return '';
  }
  record(json: string): string {
    return json + '\n';
  }
  jsonLines(page: Buffer): Buffer[] {
    return [page];
  }
  tail(): string {
    return '';
  }
}

const NEWLINE = 0x0a;
const COMMA = Buffer.from(',');

class JsonArrayEncoder implements RecordEncoder {
  readonly contentType = CONTENT_TYPES.json;
  private first = true;
  head(): string {
    return '[';
  }
  record(json: string): string {
    if (this.first) {
      this.first = false;
      return json;
    }
    return ',' + json;
  }
  /** The page's newlines become the array's commas (its last one is dropped), in place. */
  jsonLines(page: Buffer): Buffer[] {
    if (page.length === 0) return [];
    for (let nl = page.indexOf(NEWLINE); nl >= 0; nl = page.indexOf(NEWLINE, nl + 1)) page[nl] = COMMA[0];
    const body = page.subarray(0, page.length - 1);
    if (this.first) {
      this.first = false;
      return [body];
    }
    return [COMMA, body];
  }
  tail(): string {
    return ']';
  }
}

class MsgpackEncoder implements RecordEncoder {
  readonly contentType = CONTENT_TYPES.msgpack;
  private readonly writer = new MsgpackWriter();
  head(): string {
    return '';
  }
  record(json: string): Buffer {
    return this.writer.encodeJsonText(json);
  }
  tail(): string {
    return '';
  }
}

class XmlEncoder implements RecordEncoder {
  readonly contentType = CONTENT_TYPES.xml;
  head(): string {
    return XML_HEAD;
  }
  record(json: string): string {
    return xmlRecord(json);
  }
  tail(): string {
    return XML_TAIL;
  }
}

class CsvEncoder implements RecordEncoder {
  readonly contentType = CONTENT_TYPES.csv;
  private readonly writer: CsvWriter;
  constructor(opts: CsvOptions) {
    this.writer = new CsvWriter(opts);
  }
  head(): string {
    return this.writer.header();
  }
  record(json: string): string {
    return this.writer.record(json);
  }
  tail(): string {
    return '';
  }
}

class PlainTextEncoder implements RecordEncoder {
  readonly contentType = CONTENT_TYPES.text;
  head(): string {
    return '';
  }
  record(json: string): string {
    return textLine(json) + '\n';
  }
  tail(): string {
    return '';
  }
}

/**
 * The text rendering of one record (without the line end):
 * - a log-shaped record — a JSON object with a string `message` member whose other
 *   members are only `time`, `level` and meta fields (names starting with `_`, e.g.
 *   `_key`, `_ts`) — renders as the message itself, verbatim (a multi-line message,
 *   e.g. a traceback, stays multi-line);
 * - anything else renders as its compact JSON text, untouched (as in jl).
 */
export function textLine(json: string): string {
  if (!json.includes('"message"')) return json;
  const v = parseJson(json);
  if (!(v instanceof JsonObject)) return json;
  let message: string | undefined;
  for (let i = 0; i < v.keys.length; i++) {
    const k = v.keys[i];
    if (k === 'message') {
      const m = v.values[i];
      if (typeof m !== 'string') return json;
      message = m;
    } else if (k !== 'time' && k !== 'level' && k[0] !== '_') {
      return json;
    }
  }
  return message ?? json;
}
