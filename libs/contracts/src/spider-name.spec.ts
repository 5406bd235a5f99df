import { MAX_SPIDER_NAME, spiderNameProblem } from './spider-name';

describe('spiderNameProblem', () => {
  it.each(['books', 'hs-test-spider', 'example.com', '_private', '0day', 'A_b-c.d', 'x'.repeat(MAX_SPIDER_NAME)])('accepts %j', (name) => {
    expect(spiderNameProblem(name)).toBeNull();
  });

  it.each(['', 'a/b', '../x', '.hidden', '-rf', 'a b', 'tab\t', 'nul\u0000', 'é', 'x'.repeat(MAX_SPIDER_NAME + 1), 'x'.repeat(10_000)])('refuses %j', (name) => {
    expect(spiderNameProblem(name)).toMatch(/^(Invalid spider name|a spider name is required)/);
  });

  it('refuses what is not a string, and keeps a long name short in its message', () => {
    expect(spiderNameProblem(42)).toBe('a spider name is required');
    expect(spiderNameProblem(undefined)).toBe('a spider name is required');
    expect(spiderNameProblem('x'.repeat(10_000))!.length).toBeLessThan(250);
  });
});
