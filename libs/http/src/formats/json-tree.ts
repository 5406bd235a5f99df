/**
 * A small JSON reader for the non-JSON output formats (msgpack, xml, csv, text).
 *
 * `JSON.parse` is not used there because it loses what those formats must keep:
 * - member order: JS objects list integer-like keys ("2", "10") first, but items and
 *   collections must come back in the order they were written;
 * - duplicate members (kept as written, all of them);
 * - number lexemes: integers beyond 2^53 keep every digit, and `1.0` stays a float
 *   (msgpack float64, XML-RPC `<double>`), as a Python server would render them.
 */

/** A JSON number, kept as its source text. */
export class JsonNumber {
  constructor(readonly raw: string) {}
  /** True when the lexeme has no fraction and no exponent. */
  get isInteger(): boolean {
    return isIntegerLexeme(this.raw);
  }
}

/** A JSON object: members in source order (duplicates kept). */
export class JsonObject {
  constructor(
    readonly keys: string[],
    readonly values: JsonValue[],
  ) {}
  /** The last member named `key` (JSON.parse semantics), or undefined. */
  get(key: string): JsonValue | undefined {
    const i = this.keys.lastIndexOf(key);
    return i < 0 ? undefined : this.values[i];
  }
}

export type JsonValue = null | boolean | string | JsonNumber | JsonObject | JsonValue[];

export function isIntegerLexeme(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2e /* . */ || c === 0x65 /* e */ || c === 0x45 /* E */) return false;
  }
  return true;
}

const MAX_DEPTH = 512;

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new SyntaxError(`Invalid JSON record: ${what} at position ${this.pos}`);
  }

  ws(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  value(depth: number): JsonValue {
    this.ws();
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    switch (c) {
      case 0x22 /* " */:
        return this.string();
      case 0x7b /* { */:
        return this.object(depth + 1);
      case 0x5b /* [ */:
        return this.array(depth + 1);
      case 0x74 /* t */:
        return this.literal('true', true);
      case 0x66 /* f */:
        return this.literal('false', false);
      case 0x6e /* n */:
        return this.literal('null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        return this.fail(Number.isNaN(c) ? 'unexpected end' : `unexpected ${JSON.stringify(t[this.pos])}`);
    }
  }

  literal<T>(word: string, v: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('bad literal');
    this.pos += word.length;
    return v;
  }

  number(): JsonNumber {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 0x2d) p++;
    const intStart = p;
    while (isDigit(t.charCodeAt(p))) p++;
    if (p === intStart || (t.charCodeAt(intStart) === 0x30 && p - intStart > 1)) {
      this.pos = p;
      this.fail('bad number');
    }
    if (t.charCodeAt(p) === 0x2e) {
      const f = ++p;
      while (isDigit(t.charCodeAt(p))) p++;
      if (p === f) {
        this.pos = p;
        this.fail('bad number');
      }
    }
    const e = t.charCodeAt(p);
    if (e === 0x65 || e === 0x45) {
      p++;
      const s = t.charCodeAt(p);
      if (s === 0x2b || s === 0x2d) p++;
      const d = p;
      while (isDigit(t.charCodeAt(p))) p++;
      if (p === d) {
        this.pos = p;
        this.fail('bad number');
      }
    }
    this.pos = p;
    return new JsonNumber(t.slice(start, p));
  }

  string(): string {
    const t = this.text;
    let p = this.pos + 1; // after the opening quote
    const start = p;
    // Fast path: no escapes.
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x22) {
        this.pos = p + 1;
        return t.slice(start, p);
      }
      if (c === 0x5c || Number.isNaN(c)) break;
      p++;
    }
    let out = t.slice(start, p);
    for (;;) {
      const c = t.charCodeAt(p);
      if (Number.isNaN(c)) {
        this.pos = p;
        this.fail('unterminated string');
      }
      if (c === 0x22) {
        this.pos = p + 1;
        return out;
      }
      if (c !== 0x5c) {
        const runStart = p;
        while (p < t.length && t.charCodeAt(p) !== 0x22 && t.charCodeAt(p) !== 0x5c) p++;
        out += t.slice(runStart, p);
        continue;
      }
      const esc = t.charCodeAt(p + 1);
      p += 2;
      switch (esc) {
        case 0x22: out += '"'; break;
        case 0x5c: out += '\\'; break;
        case 0x2f: out += '/'; break;
        case 0x62: out += '\b'; break;
        case 0x66: out += '\f'; break;
        case 0x6e: out += '\n'; break;
        case 0x72: out += '\r'; break;
        case 0x74: out += '\t'; break;
        case 0x75: {
          const hex = t.slice(p, p + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.pos = p;
            this.fail('bad \\u escape');
          }
          out += String.fromCharCode(parseInt(hex, 16));
          p += 4;
          break;
        }
        default:
          this.pos = p - 2;
          this.fail('bad escape');
      }
    }
  }

  array(depth: number): JsonValue[] {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    this.pos++; // [
    const out: JsonValue[] = [];
    this.ws();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.ws();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x5d) return out;
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  object(depth: number): JsonObject {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    this.pos++; // {
    const keys: string[] = [];
    const values: JsonValue[] = [];
    this.ws();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return new JsonObject(keys, values);
    }
    for (;;) {
      this.ws();
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('expected a member name');
      keys.push(this.string());
      this.ws();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':'");
      this.pos++;
      values.push(this.value(depth));
      this.ws();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x7d) return new JsonObject(keys, values);
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
    }
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Parses one JSON text (a record); throws SyntaxError on malformed input. */
export function parseJson(text: string): JsonValue {
  const r = new Reader(text);
  const v = r.value(0);
  r.ws();
  if (r.pos !== text.length) r.fail('trailing characters');
  return v;
}

/** Compact JSON text of a value (no spaces; member order, duplicates and number lexemes kept). */
export function stringifyJson(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof JsonNumber) return v.raw;
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + stringifyJson(v[i]);
    return s + ']';
  }
  let s = '{';
  for (let i = 0; i < v.keys.length; i++) s += (i ? ',' : '') + JSON.stringify(v.keys[i]) + ':' + stringifyJson(v.values[i]);
  return s + '}';
}
