import { DEFAULT_STACK, resolveStack, STACKS, UnknownStackError } from './stacks';

describe('resolveStack', () => {
  it('takes a known stack as named, and the default when none is named', () => {
    expect(resolveStack('scrapy:2.11')).toBe('scrapy:2.11');
    expect(STACKS['scrapy:2.11']).toBe('Scrapy>=2.11,<2.12');
    expect(resolveStack(null)).toBe(DEFAULT_STACK);
    expect(resolveStack('  ')).toBe(DEFAULT_STACK);
  });

  it('refuses an unknown stack, naming the known ones', () => {
    expect(() => resolveStack('scrapy:1.8-py3')).toThrow(UnknownStackError);
    expect(() => resolveStack('scrapy:1.8-py3')).toThrow('Unknown stack "scrapy:1.8-py3": the known stacks are scrapy:2.11, scrapy:2.13, scrapy:2.19 (default scrapy:2.19)');
  });
});
