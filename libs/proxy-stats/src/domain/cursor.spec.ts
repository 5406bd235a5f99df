import { decodeCursor, encodeCursor, floatHex, parseFloatHex } from './cursor';

describe('the after cursor', () => {
  it('is made like the original token (base64 of float.hex of Unix seconds)', () => {
    expect(floatHex(1545063600)).toBe('0x1.705f32c000000p+30');
    expect(encodeCursor(Date.parse('2018-12-17T16:20:00Z'))).toBe('MHgxLjcwNWYzMmMwMDAwMDBwKzMw');
    expect(decodeCursor('MHgxLjcwNWYzMmMwMDAwMDBwKzMw')).toBe(Date.parse('2018-12-17T16:20:00Z'));
  });

  it('round-trips any bucket start, and float.hex of small numbers', () => {
    for (const ms of [0, 300_000, Date.parse('1999-01-01T00:05:00Z'), Date.parse('2026-11-21T12:35:00Z'), Date.parse('2099-12-31T23:55:00Z')]) {
      expect(decodeCursor(encodeCursor(ms))).toBe(ms);
    }
    expect(floatHex(1)).toBe('0x1.0000000000000p+0');
    expect(floatHex(0.5)).toBe('0x1.0000000000000p-1');
    expect(floatHex(0)).toBe('0x0.0p+0');
    expect(parseFloatHex('0x1.8p+1')).toBe(3);
    expect(parseFloatHex('0x0.0p+0')).toBe(0);
  });

  it('refuses what is not a token', () => {
    for (const bad of ['', 'not a token!', Buffer.from('hello').toString('base64'), Buffer.from('0x1.0p+99').toString('base64'), Buffer.from('-0x1.0p+3').toString('base64')]) {
      expect(decodeCursor(bad)).toBeNull();
    }
  });
});
