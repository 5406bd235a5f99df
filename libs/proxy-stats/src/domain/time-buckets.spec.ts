import { BUCKET_MS, bucketOf, formatTime, GroupBy, groupStart, nextGroupStart, parseIsoDate } from './time-buckets';

const t = (iso: string) => Date.parse(iso);

describe('time buckets', () => {
  it('cuts time into 5-minute buckets', () => {
    expect(BUCKET_MS).toBe(300_000);
    expect(bucketOf(t('2018-12-17T15:34:59.999Z'))).toBe(t('2018-12-17T15:30:00Z'));
    expect(bucketOf(t('2018-12-17T15:35:00Z'))).toBe(t('2018-12-17T15:35:00Z'));
    expect(bucketOf(0)).toBe(0);
  });

  it('rolls buckets up to hours, days, months and years (UTC)', () => {
    const at = t('2020-02-29T23:55:00Z');
    expect(formatTime(groupStart(at, 'max', 0))).toBe('2020-02-29T23:55:00+00:00');
    expect(formatTime(groupStart(at, 'hour', 0))).toBe('2020-02-29T23:00:00+00:00');
    expect(formatTime(groupStart(at, 'day', 0))).toBe('2020-02-29T00:00:00+00:00');
    expect(formatTime(groupStart(at, 'month', 0))).toBe('2020-02-01T00:00:00+00:00');
    expect(formatTime(groupStart(at, 'year', 0))).toBe('2020-01-01T00:00:00+00:00');
    expect(groupStart(at, null, 1234)).toBe(1234);
  });

  it('finds the next group, across month and year ends', () => {
    const next = (iso: string, g: GroupBy) => formatTime(nextGroupStart(t(iso), g));
    expect(next('2020-02-29T23:55:00Z', 'max')).toBe('2020-03-01T00:00:00+00:00');
    expect(next('2020-02-29T23:00:00Z', 'hour')).toBe('2020-03-01T00:00:00+00:00');
    expect(next('2020-02-29T00:00:00Z', 'day')).toBe('2020-03-01T00:00:00+00:00');
    expect(next('2020-02-01T00:00:00Z', 'month')).toBe('2020-03-01T00:00:00+00:00');
    expect(next('2020-12-01T00:00:00Z', 'month')).toBe('2021-01-01T00:00:00+00:00');
    expect(next('2020-01-01T00:00:00Z', 'year')).toBe('2021-01-01T00:00:00+00:00');
    expect(nextGroupStart(5, null)).toBe(Infinity);
  });

  it('formats time_gte as the original does', () => {
    expect(formatTime(t('2018-12-17T15:30:00Z'))).toBe('2018-12-17T15:30:00+00:00');
  });

  it('parses ISO 8601 dates and date-times, UTC unless a zone is given', () => {
    expect(parseIsoDate('2018-12-17')).toBe(t('2018-12-17T00:00:00Z'));
    expect(parseIsoDate('2018-12-17T15:30')).toBe(t('2018-12-17T15:30:00Z'));
    expect(parseIsoDate('2018-12-17T15:30:01')).toBe(t('2018-12-17T15:30:01Z'));
    expect(parseIsoDate('2018-12-17T15:30:01.250Z')).toBe(t('2018-12-17T15:30:01.250Z'));
    expect(parseIsoDate('2018-12-17 15:30:01')).toBe(t('2018-12-17T15:30:01Z'));
    expect(parseIsoDate('2018-12-17T16:30:00+01:00')).toBe(t('2018-12-17T15:30:00Z'));
    expect(parseIsoDate('2018-12-17T14:30:00-0100')).toBe(t('2018-12-17T15:30:00Z'));
    expect(parseIsoDate('2018-12-17T15:30:00+00:00')).toBe(t('2018-12-17T15:30:00Z'));
    for (const bad of ['', 'yesterday', '2018-13-01', '2018-02-30', '2018-12-17T24:00', '2018-12-17T15:30:00+25:00', '17/12/2018', '1545060600']) {
      expect(parseIsoDate(bad)).toBeNull();
    }
  });
});
