import { toIsoDate } from './published-date';

describe('toIsoDate', () => {
  it('keeps ISO dates, with a T and the zone the page gave', () => {
    expect(toIsoDate('2019-11-19T13:03:00.000Z')).toBe('2019-11-19T13:03:00.000Z');
    expect(toIsoDate('2019-11-19 02:24:00')).toBe('2019-11-19T02:24:00');
    expect(toIsoDate('2019-11-19T09:01:42+0530')).toBe('2019-11-19T09:01:42+05:30');
    expect(toIsoDate('2014-09-15')).toBe('2014-09-15T00:00:00');
  });

  it('reads dates written out in words, both orders', () => {
    expect(toIsoDate('Updated Nov. 19, 2019 8:21 am ET')).toBe('2019-11-19T00:00:00');
    expect(toIsoDate('5th October 2018')).toBe('2018-10-05T00:00:00');
  });

  it('refuses what is no date', () => {
    expect(toIsoDate('2019-13-45')).toBeUndefined();
    expect(toIsoDate('yesterday')).toBeUndefined();
  });
});
