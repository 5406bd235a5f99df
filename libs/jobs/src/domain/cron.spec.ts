import { CronError, lastFireBetween, nextFire, parseCron } from './cron';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('cron', () => {
  it('finds the next minute of common expressions', () => {
    expect(iso(nextFire(parseCron('*/15 * * * *'), at('2026-01-01T10:07:30Z')))).toBe('2026-01-01T10:15:00.000Z');
    expect(iso(nextFire(parseCron('0 3 * * *'), at('2026-01-01T03:00:00Z')))).toBe('2026-01-02T03:00:00.000Z');
    expect(iso(nextFire(parseCron('30 8 * * 1-5'), at('2026-01-03T09:00:00Z')))).toBe('2026-01-05T08:30:00.000Z'); // Saturday -> Monday
    expect(iso(nextFire(parseCron('0 0 1 */3 *'), at('2026-02-10T00:00:00Z')))).toBe('2026-04-01T00:00:00.000Z');
    expect(iso(nextFire(parseCron('0 12 13 * 5'), at('2026-03-01T00:00:00Z')))).toBe('2026-03-06T12:00:00.000Z'); // a Friday or the 13th
    expect(iso(nextFire(parseCron('0 0 * * 7'), at('2026-01-01T00:00:00Z')))).toBe('2026-01-04T00:00:00.000Z'); // 7 is Sunday
  });
  it('finds the last missed fire of a window', () => {
    const c = parseCron('0 * * * *');
    expect(iso(lastFireBetween(c, at('2026-01-01T00:00:00Z'), at('2026-01-01T05:30:00Z'))!)).toBe('2026-01-01T05:00:00.000Z');
    expect(lastFireBetween(c, at('2026-01-01T05:00:00Z'), at('2026-01-01T05:59:00Z'))).toBeNull();
  });
  it('reads day and month names and the nicknames', () => {
    expect(iso(nextFire(parseCron('0 9 * * MON'), at('2026-01-01T10:07:30Z')))).toBe('2026-01-05T09:00:00.000Z'); // Thursday -> Monday
    expect(iso(nextFire(parseCron('0 9 * * mon-fri'), at('2026-01-03T10:00:00Z')))).toBe('2026-01-05T09:00:00.000Z');
    expect(iso(nextFire(parseCron('0 0 1 JAN *'), at('2026-01-03T10:00:00Z')))).toBe('2027-01-01T00:00:00.000Z');
    expect(iso(nextFire(parseCron('@daily'), at('2026-01-03T10:00:00Z')))).toBe('2026-01-04T00:00:00.000Z');
  });
  it('computes fires far apart and long windows directly', () => {
    // The next 29th of February on a Monday-or-29th rule, and the last minute of a ten-year window (five million minutes).
    expect(iso(nextFire(parseCron('0 0 29 2 *'), at('2026-03-01T00:00:00Z')))).toBe('2028-02-29T00:00:00.000Z');
    expect(iso(lastFireBetween(parseCron('* * * * *'), at('2016-01-01T00:00:00Z'), at('2026-01-01T05:30:30Z'))!)).toBe('2026-01-01T05:30:00.000Z');
    expect(iso(lastFireBetween(parseCron('0 9 * * MON'), at('2016-01-01T00:00:00Z'), at('2026-01-01T05:30:30Z'))!)).toBe('2025-12-29T09:00:00.000Z');
  });
  it('refuses malformed expressions', () => {
    expect(() => parseCron('* * *')).toThrow(CronError);
    expect(() => parseCron('61 * * * *')).toThrow(CronError);
    expect(() => parseCron('a * * * *')).toThrow(CronError);
    expect(() => parseCron('* * * * * *')).toThrow(CronError); // seconds are not ours: five fields
    expect(() => parseCron('0 9 * * MONDAY')).toThrow(CronError);
    expect(() => nextFire(parseCron('0 0 31 2 *'), 0)).toThrow('never fires');
  });
  it('reads numbers exactly and bounds steps by the span of their field', () => {
    expect(iso(nextFire(parseCron('*/60 * * * *'), at('2026-01-01T10:07:00Z')))).toBe('2026-01-01T11:00:00.000Z');
    expect(() => parseCron('*/61 * * * *')).toThrow(CronError);
    // Number() would read it as 1.8e19, a step that passes every lower bound and fires once an hour.
    expect(() => parseCron('*/18446744073709551616 * * * *')).toThrow(CronError);
    expect(() => parseCron('0-999999999999 * * * *')).toThrow(CronError);
    expect(() => parseCron('0 0 1 1 */0')).toThrow(CronError);
  });
});
