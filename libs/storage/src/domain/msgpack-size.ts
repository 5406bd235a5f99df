/**
 * The number of bytes msgpack would use for a JSON value, without encoding it. The
 * storage stats report `input_bytes` as msgpack sizes (compat-notes §8).
 */
export function msgpackSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'number') return numberSize(value);
  if (typeof value === 'string') return strSize(value);
  if (Array.isArray(value)) {
    let n = headerSize(value.length, 15);
    for (const v of value) n += msgpackSize(v);
    return n;
  }
  let n = 0;
  let count = 0;
  for (const k in value as Record<string, unknown>) {
    count++;
    n += strSize(k) + msgpackSize((value as Record<string, unknown>)[k]);
  }
  return n + headerSize(count, 15);
}

function headerSize(count: number, fixMax: number): number {
  if (count <= fixMax) return 1;
  return count <= 0xffff ? 3 : 5;
}

/** Strings up to this length are measured in JS: for keys and short values a loop is cheaper than a call into Buffer. */
const SHORT_STRING = 64;

function utf8Length(s: string): number {
  if (s.length > SHORT_STRING) return Buffer.byteLength(s, 'utf8');
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return Buffer.byteLength(s, 'utf8');
  return s.length;
}

function strSize(s: string): number {
  const bytes = utf8Length(s);
  if (bytes <= 31) return 1 + bytes;
  if (bytes <= 0xff) return 2 + bytes;
  if (bytes <= 0xffff) return 3 + bytes;
  return 5 + bytes;
}

function numberSize(n: number): number {
  if (!Number.isInteger(n) || !Number.isSafeInteger(n)) return 9;
  if (n >= 0) {
    if (n <= 0x7f) return 1;
    if (n <= 0xff) return 2;
    if (n <= 0xffff) return 3;
    if (n <= 0xffffffff) return 5;
    return 9;
  }
  if (n >= -32) return 1;
  if (n >= -0x80) return 2;
  if (n >= -0x8000) return 3;
  if (n >= -0x80000000) return 5;
  return 9;
}
