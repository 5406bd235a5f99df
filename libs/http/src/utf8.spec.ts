import { decodeUtf8, InvalidUtf8Error } from './utf8';

describe('decodeUtf8', () => {
  it('decodes UTF-8, a BOM kept as text (as Buffer.toString keeps it)', () => {
    expect(decodeUtf8(Buffer.from('{"a":"é 日本 😀"}'))).toBe('{"a":"é 日本 😀"}');
    expect(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x61]))).toBe('\ufeffa');
    expect(decodeUtf8(Buffer.alloc(0))).toBe('');
  });

  it.each([
    ['a stray 0xFF', [0x61, 0xff, 0x62]],
    ['Latin-1 é (0xE9)', [0x63, 0x61, 0x66, 0xe9]],
    ['a sequence cut short', [0xe6, 0x97]],
    ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
    ['an overlong "/"', [0xc0, 0xaf]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('refuses %s instead of replacing it with U+FFFD', (_what, bytes) => {
    expect(() => decodeUtf8(Buffer.from(bytes))).toThrow(InvalidUtf8Error);
    // A SyntaxError: every "malformed input" path refuses it with 400.
    expect(() => decodeUtf8(Buffer.from(bytes))).toThrow(SyntaxError);
  });
});
