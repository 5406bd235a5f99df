import { Ctx, fetchFailure, HostileCase, HostileRequest, refused, Who } from '../support/case';
import { deepObject, MIB, TWO_POW_64, withInvalidUtf8 } from '../support/payloads';
import { URL_SPELLINGS } from './ssrf-spellings';

/**
 * Fetch API (:8003 POST /fetch/v2): problems of the request are 4xx `{"error", "message"}`;
 * a target the platform will not fetch is a 200 fetch response object with
 * `proxy_status: "fail"` and the proxy's code (docs/fetch-api.md).
 */

const JSON_TYPE = { 'content-type': 'application/json' };
const fpost = (body: string | Buffer, headers: Record<string, string> = JSON_TYPE, as: Who = 'p1'): HostileRequest => ({ api: 'fetch', method: 'POST', target: '/fetch/v2', body, headers, as });
const params = (o: Record<string, unknown>) => fpost(JSON.stringify({ url: 'http://hostile.invalid/', ...o }));

const requestCases: HostileCase[] = [
  { name: 'no key', request: () => fpost('{"url":"http://hostile.invalid/"}', JSON_TYPE, 'none'), expect: refused(401) },
  { name: 'a key without the browser capability (the other tenant)', request: () => fpost('{"url":"http://hostile.invalid/"}', JSON_TYPE, 'p2'), expect: refused(401) },
  { name: 'malformed JSON', request: () => fpost('{"url":'), expect: refused() },
  { name: 'a JSON array', request: () => fpost('[{"url":"http://hostile.invalid/"}]'), expect: refused() },
  { name: 'a JSON string', request: () => fpost('"http://hostile.invalid/"'), expect: refused() },
  { name: 'JSON with bytes that are not UTF-8', request: () => fpost(withInvalidUtf8('{"url":"http://hostile.invalid/', '"}')), expect: refused() },
  { name: 'JSON nested 10,000 levels', items: [5], request: () => fpost(`{"url":"http://hostile.invalid/","extra":${deepObject(10_000)}}`), expect: refused() },
  { name: 'headers nested 10,000 levels', items: [5], request: () => fpost(`{"url":"http://hostile.invalid/","headers":${deepObject(10_000)}}`), expect: refused() },
  { name: 'Content-Type text/plain', request: () => fpost('{"url":"http://hostile.invalid/"}', { 'content-type': 'text/plain' }), expect: refused(415) },
  { name: 'Content-Encoding gzip on a body that is not gzip', request: () => fpost('{"url":"http://hostile.invalid/"}', { ...JSON_TYPE, 'content-encoding': 'gzip' }), expect: refused(400, 415) },
  { name: 'a body over 4 MiB', request: () => fpost(JSON.stringify({ url: 'http://hostile.invalid/', body: 'x'.repeat(4 * MIB) })), expect: refused(413) },
  { name: 'a form with a bad %-escape', request: () => fpost('url=%ZZ', { 'content-type': 'application/x-www-form-urlencoded' }), expect: refused() },
  { name: 'a form naming url twice', request: () => fpost('url=http%3A%2F%2Fa.invalid%2F&url=http%3A%2F%2Fb.invalid%2F', { 'content-type': 'application/x-www-form-urlencoded' }), expect: refused() },
  { name: 'no url', request: () => fpost('{}'), expect: refused() },
  ...['javascript:alert(1)', 'file:///etc/passwd', 'ftp://hostile.invalid/', 'http://', 'http://[::1', 'gopher://127.0.0.1:25/'].map((url) => ({ name: `url ${url}`, request: () => params({ url }), expect: refused() })),
  { name: 'a url that is a number', request: () => params({ url: 12 }), expect: refused() },
  ...[
    ['method with CR LF', { method: 'GET\r\nX-Injected: 1' }],
    ['an empty method', { method: '' }],
    ['a method of 10,000 characters', { method: 'G'.repeat(10_000) }],
    ['headers that are not an object', { headers: '["a"]' }],
    ['a header value with CR LF', { headers: { 'X-A': 'a\r\nX-Injected: 1' } }],
    ['a header name with a space', { headers: { 'X A': 'a' } }],
    ['render "maybe"', { render: 'maybe' }],
    ['screenshot 2', { screenshot: 2 }],
    ['device "fridge"', { device: 'fridge' }],
    ['region "narnia!"', { region: 'narnia!' }],
    ['job_id "../1/1"', { job_id: '../1/1' }],
    ['job_id past 2^53', { job_id: `1/1/${TWO_POW_64}` }, [6]],
  ].map(([name, o, items]) => ({ name: name as string, items: items as number[] | undefined, request: () => params(o as Record<string, unknown>), expect: refused() })),
  { name: 'a path through ../', request: () => ({ ...params({}), target: '/fetch/v2/../v2' }), expect: refused(404) },
  { name: 'a path with NUL', request: () => ({ ...params({}), target: '/fetch/v2%00' }), expect: refused(404) },
  { name: "job_id of the other tenant's project", request: (c) => params({ job_id: c.seed.otherTenantJob }), expect: fetchFailure('header_auth') },
];

const ssrfCases: HostileCase[] = [
  ...URL_SPELLINGS.map((s) => ({
    name: `SSRF: ${s.label} (${s.host})`,
    items: s.items,
    request: (c: Ctx) => params({ url: `http://${s.host}:${c.platform.canary.port}/fetch-ssrf` }),
    expect: fetchFailure('domain_forbidden'),
  })),
  ...URL_SPELLINGS.filter((s) => ['[::1]', '127.0.0.1', '[0:0:0:0:0:0:0:1]', '[::ffff:7f00:1]', '[::127.0.0.1]', '[64:ff9b::7f00:1]', '2130706433'].includes(s.host)).map((s) => ({
    name: `SSRF rendered: ${s.label} (${s.host})`,
    items: s.items,
    request: (c: Ctx) => params({ url: `http://${s.host}:${c.platform.canary.port}/render-ssrf`, render: true }),
    expect: fetchFailure('domain_forbidden'),
  })),
  {
    name: 'SSRF: https to IPv6 loopback written out',
    items: [2],
    request: (c) => params({ url: `https://[0:0:0:0:0:0:0:1]:${c.platform.canary.port}/` }),
    expect: fetchFailure('domain_forbidden'),
  },
];

export const FETCH_CASES: HostileCase[] = [...requestCases, ...ssrfCases];
