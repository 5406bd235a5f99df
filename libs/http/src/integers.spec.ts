import { MAX_ID, parseUnsignedInteger } from './integers';

describe('parseUnsignedInteger', () => {
  it('reads decimal digits, leading zeros included', () => {
    expect(parseUnsignedInteger('0')).toBe(0);
    expect(parseUnsignedInteger('42')).toBe(42);
    expect(parseUnsignedInteger('007')).toBe(7);
    expect(parseUnsignedInteger('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each(['', ' 1', '1 ', '+1', '-1', '1e0', '1.0', '2.5', '0x10', '1_000', 'Infinity', 'NaN', '١'])('refuses %j', (text) => {
    expect(parseUnsignedInteger(text)).toBeNull();
  });

  it('refuses what a number cannot hold exactly: 2^53 and beyond', () => {
    expect(parseUnsignedInteger('9007199254740992')).toBeNull();
    expect(parseUnsignedInteger('9007199254740993')).toBeNull();
    expect(parseUnsignedInteger('99999999999999999999999')).toBeNull();
    expect(parseUnsignedInteger('9007199254740992', Infinity)).toBeNull();
  });

  it('applies the maximum', () => {
    expect(parseUnsignedInteger('6', 6)).toBe(6);
    expect(parseUnsignedInteger('7', 6)).toBeNull();
    expect(parseUnsignedInteger(String(MAX_ID), MAX_ID)).toBe(MAX_ID);
    expect(parseUnsignedInteger(String(MAX_ID + 1), MAX_ID)).toBeNull();
    expect(parseUnsignedInteger(null)).toBeNull();
    expect(parseUnsignedInteger(undefined)).toBeNull();
  });
});
