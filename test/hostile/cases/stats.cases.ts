import { HostileCase, HostileRequest, refused, Who } from '../support/case';

/** Proxy usage statistics (:8011 GET /stats). Errors are JSON {status, message}, as the dash API's. */

const stats = (query: string, as: Who = 'p1'): HostileRequest => ({ api: 'stats', target: `/stats${query ? `?${query}` : ''}`, as });

export const STATS_CASES: HostileCase[] = [
  { name: 'no key', request: () => stats('', 'none'), expect: refused(401) },
  { name: 'an unknown key', request: () => stats('', { rawAuthorization: 'Basic eDo=' }), expect: refused(401) },
  { name: 'a job token', request: () => stats('', { jobToken: 'running' }), expect: refused(401, 403) },
  { name: "the other tenant's usage", request: (c) => stats(`users=${c.platform.p1.id}`, 'p2'), expect: refused(403) },
  { name: 'every user, asked by a project key', request: (c) => stats(`users=${c.platform.p1.id},${c.platform.p2.id}`, 'p1'), expect: refused(403) },
  { name: '1,001 users', request: () => stats(`users=${Array.from({ length: 1001 }, (_, i) => `u${i}`).join(',')}`, 'admin'), expect: refused() },
  ...[
    'start_date=yesterday',
    'start_date=2018-13-45',
    'start_date=99999-01-01',
    'end_date=1e400',
    'start_date=2020-01-02&end_date=2020-01-01',
    'start_date=2018-12-17T25:00',
    'groupby=week',
    'limit=0',
    'limit=-1',
    'limit=1.5',
    'limit=NaN',
    'limit=10001',
    'limit=99999999999999999999',
    'after=not-a-token',
    'after=MHgxLjcwNWYzMmMwMDAwMDBwKzMw%00',
    `after=${Buffer.from('0x1.fffffffffffffp+1023').toString('base64')}`,
  ].map((q) => ({ name: q, request: () => stats(q), expect: refused() })),
  { name: 'a path through ../', request: () => ({ ...stats(''), target: '/stats/../stats/..' }), expect: refused(404) },
  { name: 'an unknown route', request: () => ({ ...stats(''), target: '/admin' }), expect: refused(404) },
];
