import { JsonNumber, JsonObject, JsonValue, isIntegerLexeme, parseJson } from './json-tree';

/**
 * JSON text → MessagePack, one record at a time (the body is the plain concatenation
 * of the records' maps, no array wrapper; read it with `decodeMulti` / `msgpack.Unpacker`).
 *
 * Encodings are the smallest ones, exactly those `@msgpack/msgpack`'s `encode` picks
 * for the same values (checked by the spec), plus what `encode(JSON.parse(...))`
 * cannot do:
 * - maps keep member order as written (JSON.parse would move integer-like keys first);
 * - integers keep full precision up to 64 bits (int64 / uint64); beyond that, float64;
 * - numbers written with a fraction or exponent (`1.0`, `2e3`) are float64, as a
 *   Python server storing the parsed JSON would keep them.
 */
export class MsgpackWriter {
  private buf = Buffer.allocUnsafe(16 * 1024);
  private pos = 0;

  /** Encodes one JSON text; returns a fresh Buffer (safe to keep). */
  encodeJsonText(json: string): Buffer {
    this.pos = 0;
    this.value(parseJson(json));
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  private u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  private tagU16(tag: number, v: number): void {
    this.ensure(3);
    this.buf[this.pos] = tag;
    this.buf.writeUInt16BE(v, this.pos + 1);
    this.pos += 3;
  }

  private tagU32(tag: number, v: number): void {
    this.ensure(5);
    this.buf[this.pos] = tag;
    this.buf.writeUInt32BE(v, this.pos + 1);
    this.pos += 5;
  }

  private value(v: JsonValue): void {
    if (v === null) this.u8(0xc0);
    else if (typeof v === 'string') this.str(v);
    else if (typeof v === 'boolean') this.u8(v ? 0xc3 : 0xc2);
    else if (v instanceof JsonNumber) this.num(v.raw);
    else if (Array.isArray(v)) {
      this.header(v.length, 0x90, 0xdc, 0xdd);
      for (let i = 0; i < v.length; i++) this.value(v[i]);
    } else this.map(v);
  }

  private map(o: JsonObject): void {
    const n = o.keys.length;
    this.header(n, 0x80, 0xde, 0xdf);
    for (let i = 0; i < n; i++) {
      this.str(o.keys[i]);
      this.value(o.values[i]);
    }
  }

  /** fix (<16) / 16-bit / 32-bit length header for arrays and maps. */
  private header(n: number, fix: number, t16: number, t32: number): void {
    if (n < 16) this.u8(fix | n);
    else if (n < 0x10000) this.tagU16(t16, n);
    else this.tagU32(t32, n);
  }

  private str(s: string): void {
    const len = s.length;
    if (len < 32) {
      // Short ASCII strings (most keys and many values): one pass, fixstr header.
      this.ensure(1 + len);
      const b = this.buf;
      let p = this.pos + 1;
      let i = 0;
      for (; i < len; i++) {
        const c = s.charCodeAt(i);
        if (c > 0x7f) break;
        b[p++] = c;
      }
      if (i === len) {
        b[this.pos] = 0xa0 | len;
        this.pos = p;
        return;
      }
    }
    const n = Buffer.byteLength(s, 'utf8');
    if (n < 32) this.u8(0xa0 | n);
    else if (n < 0x100) {
      this.ensure(2);
      this.buf[this.pos++] = 0xd9;
      this.buf[this.pos++] = n;
    } else if (n < 0x10000) this.tagU16(0xda, n);
    else this.tagU32(0xdb, n);
    this.ensure(n);
    this.buf.write(s, this.pos, n, 'utf8');
    this.pos += n;
  }

  private num(raw: string): void {
    if (isIntegerLexeme(raw)) {
      if (raw.length <= 15) {
        this.int(Number(raw));
        return;
      }
      const big = BigInt(raw);
      if (big >= -(2n ** 63n) && big < 2n ** 64n) {
        if (big >= -9007199254740991n && big <= 9007199254740991n) this.int(Number(big));
        else {
          this.ensure(9);
          if (big >= 0n) {
            this.buf[this.pos] = 0xcf;
            this.buf.writeBigUInt64BE(big, this.pos + 1);
          } else {
            this.buf[this.pos] = 0xd3;
            this.buf.writeBigInt64BE(big, this.pos + 1);
          }
          this.pos += 9;
        }
        return;
      }
    }
    this.ensure(9);
    this.buf[this.pos] = 0xcb;
    this.buf.writeDoubleBE(Number(raw), this.pos + 1);
    this.pos += 9;
  }

  /** A safe integer, smallest encoding (`-0` is 0). */
  private int(v: number): void {
    if (v >= 0) {
      if (v < 0x80) this.u8(v);
      else if (v < 0x100) {
        this.ensure(2);
        this.buf[this.pos++] = 0xcc;
        this.buf[this.pos++] = v;
      } else if (v < 0x10000) this.tagU16(0xcd, v);
      else if (v < 0x100000000) this.tagU32(0xce, v);
      else {
        this.ensure(9);
        this.buf[this.pos] = 0xcf;
        this.buf.writeBigUInt64BE(BigInt(v), this.pos + 1);
        this.pos += 9;
      }
    } else if (v >= -0x20) this.u8(0xe0 | (v + 0x20));
    else if (v >= -0x80) {
      this.ensure(2);
      this.buf[this.pos++] = 0xd0;
      this.buf.writeInt8(v, this.pos++);
    } else if (v >= -0x8000) {
      this.ensure(3);
      this.buf[this.pos] = 0xd1;
      this.buf.writeInt16BE(v, this.pos + 1);
      this.pos += 3;
    } else if (v >= -0x80000000) {
      this.ensure(5);
      this.buf[this.pos] = 0xd2;
      this.buf.writeInt32BE(v, this.pos + 1);
      this.pos += 5;
    } else {
      this.ensure(9);
      this.buf[this.pos] = 0xd3;
      this.buf.writeBigInt64BE(BigInt(v), this.pos + 1);
      this.pos += 9;
    }
  }
}
