import { FilterError, parseFilters } from './record-filter';

describe('parseFilters', () => {
  const logs = [{ level: 10, message: 'debug shortcut' }, { level: 30, message: 'warn' }, { level: 40, message: 'error shortcut' }];
  const apply = (...f: string[]) => logs.filter(parseFilters(f)!);

  it('compares, matches any of several values, and combines filters with AND', () => {
    expect(apply('["level", ">=", [30]]').map((l) => l.level)).toEqual([30, 40]);
    expect(apply('["level", "=", [10, 40]]').map((l) => l.level)).toEqual([10, 40]);
    expect(apply('["message", "contains", ["shortcut"]]', '["level", ">", [20]]').map((l) => l.level)).toEqual([40]);
    expect(apply('["tags", "haselement", ["a"]]')).toEqual([]);
  });
  it('refuses what it cannot read', () => {
    expect(() => parseFilters(['nope'])).toThrow(FilterError);
    expect(() => parseFilters(['["a", "~", [1]]'])).toThrow('operator');
  });
  it('is absent without filter parameters', () => {
    expect(parseFilters([])).toBeNull();
  });
});
