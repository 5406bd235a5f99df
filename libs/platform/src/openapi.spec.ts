import { RequestMethod } from '@nestjs/common';
import { isUnprefixedRoute } from './openapi';

describe('isUnprefixedRoute', () => {
  const unprefixed = [
    { path: '/', method: RequestMethod.GET },
    { path: 'p/{*path}', method: RequestMethod.GET },
    { path: 'stats/*', method: RequestMethod.ALL },
  ];

  it('matches everything under a wildcard pattern, in its old (/*) and Nest 11 named (/{*name}) forms', () => {
    expect(isUnprefixedRoute('/p/*', unprefixed)).toBe(true);
    expect(isUnprefixedRoute('/p/1/jobs', unprefixed)).toBe(true);
    expect(isUnprefixedRoute('/stats/usage', unprefixed)).toBe(true);
  });

  it('does not match a route that only shares a prefix of letters, nor the API itself', () => {
    expect(isUnprefixedRoute('/projects/1', unprefixed)).toBe(false);
    expect(isUnprefixedRoute('/statistics', unprefixed)).toBe(false);
    expect(isUnprefixedRoute('/api/jobs/list.json', unprefixed)).toBe(false);
  });

  it('matches an exact pattern only exactly', () => {
    expect(isUnprefixedRoute('/', unprefixed)).toBe(true);
    expect(isUnprefixedRoute('/p', unprefixed)).toBe(false);
  });
});
