import { toIsoDate } from './published-date';

describe('toIsoDate', () => {
  it('keeps ISO dates, with a T and the zone the page gave', () => {
    expect(toIsoDate('2019-11-19T13:03:00.000Z')).toBe('2019-11-19T13:03:00.000Z');
    expect(toIsoDate('2019-11-19 02:24:00')).toBe('2019-11-19T02:24:00');
    expect(toIsoDate('2019-11-19T09:01:42+0530')).toBe('2019-11-19T09:01:42+05:30');
    expect(toIsoDate('2014-09-15')).toBe('2014-09-15T00:00:00');
  });

  it('reads dates written out in words, both orders', () => {
    expect(toIsoDate('Updated Nov. 19, 2019')).toBe('2019-11-19T00:00:00');
    expect(toIsoDate('5th October 2018')).toBe('2018-10-05T00:00:00');
  });

  it('takes the time of day of a written date, and its offset when numeric or GMT', () => {
    expect(toIsoDate('November 19, 2019, 07:47 PM EST')).toBe('2019-11-19T19:47:00');
    expect(toIsoDate('Mon, 18 Nov 2019 16:07:38 -0600')).toBe('2019-11-18T16:07:38-06:00');
    expect(toIsoDate('19 Nov 2019 07:09 GMT')).toBe('2019-11-19T07:09:00Z');
    expect(toIsoDate('01:38:07 PM IST Nov 20, 2019')).toBe('2019-11-20T13:38:07');
    expect(toIsoDate('12:05 am, Jan 2, 2020')).toBe('2020-01-02T00:05:00');
  });

  it('reads month names in German, French, Italian, Spanish, Portuguese and Dutch, and abbreviations they agree on', () => {
    expect(toIsoDate('5. März 2024')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('5 mars 2024')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('5 de marzo de 2024')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('sexta-feira, 22 de outubro de 2010 às 20:13')).toBe('2010-10-22T20:13:00');
    expect(toIsoDate('12 juli 2023')).toBe('2023-07-12T00:00:00');
    expect(toIsoDate('Sept. 3, 2021')).toBe('2021-09-03T00:00:00');
    // "jui" begins both juin and juillet: no month.
    expect(toIsoDate('3 jui 2021')).toBeUndefined();
  });

  it('reads numeric dates that say which part is the day, and leaves ambiguous ones out', () => {
    expect(toIsoDate('2024年3月5日')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('2024년 3월 5일')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('2024/03/05 14:20')).toBe('2024-03-05T14:20:00');
    expect(toIsoDate('05.03.2024')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('03/05/2024')).toBeUndefined();
  });

  it('refuses what is no date', () => {
    expect(toIsoDate('2019-13-45')).toBeUndefined();
    expect(toIsoDate('yesterday')).toBeUndefined();
  });
});
