import { Ctx, extractionError, HostileCase, HostileRequest, refused, Who } from '../support/case';
import { deepArray, deepObject, withInvalidUtf8 } from '../support/payloads';
import { URL_SPELLINGS } from './ssrf-spellings';

/**
 * Extraction API (:8004 POST /v1/extract): a bad request is an application/problem+json 4xx;
 * a query the platform will not run is answered in the 200 batch with the original's error
 * string (docs/extraction-api.md).
 */

const JSON_TYPE = { 'content-type': 'application/json' };
const epost = (body: string | Buffer, headers: Record<string, string> = JSON_TYPE, as: Who = 'p1'): HostileRequest => ({ api: 'extraction', method: 'POST', target: '/v1/extract', body, headers, as });
const query = (o: Record<string, unknown>) => epost(JSON.stringify([{ url: 'http://hostile.invalid/', pageType: 'article', ...o }]));

const requestCases: HostileCase[] = [
  { name: 'no key', request: () => epost('[{"url":"http://hostile.invalid/","pageType":"article"}]', JSON_TYPE, 'none'), expect: refused(401) },
  { name: 'a key without the extraction capability (the other tenant)', request: () => epost('[{"url":"http://hostile.invalid/","pageType":"article"}]', JSON_TYPE, 'p2'), expect: refused(403) },
  { name: 'an empty body', request: () => epost(''), expect: refused() },
  { name: 'malformed JSON', request: () => epost('[{"url":'), expect: refused() },
  { name: 'an object, not a list', request: () => epost('{"url":"http://hostile.invalid/","pageType":"article"}'), expect: refused() },
  { name: 'an empty list', request: () => epost('[]'), expect: refused() },
  { name: 'JSON with bytes that are not UTF-8', request: () => epost(withInvalidUtf8('[{"url":"http://hostile.invalid/', '","pageType":"article"}]')), expect: refused() },
  { name: 'JSON nested 10,000 levels', items: [5], request: () => epost(deepArray(10_000)), expect: refused() },
  { name: 'a query with a field nested 10,000 levels', items: [5], request: () => epost(`[{"url":"http://hostile.invalid/","pageType":"article","fullHtml":${deepObject(10_000)}}]`), expect: refused() },
  { name: 'a query with a field nested 1,000 levels', items: [5], request: () => epost(`[{"url":"http://hostile.invalid/","pageType":"article","fullHtml":${deepObject(1_000)}}]`), expect: refused() },
  { name: '101 queries', request: () => epost(JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ url: `http://h${i}.invalid/`, pageType: 'article' })))), expect: refused(413) },
  { name: 'a body over 128 KB', request: () => epost(JSON.stringify([{ url: 'http://hostile.invalid/', pageType: 'article', fullHtml: 'x'.repeat(200_000) }])), expect: refused(413) },
  { name: 'Content-Type text/plain', request: () => epost('[{"url":"http://hostile.invalid/","pageType":"article"}]', { 'content-type': 'text/plain' }), expect: refused(415) },
  { name: 'Content-Encoding gzip on a body that is not gzip', request: () => epost('[{"url":"http://hostile.invalid/","pageType":"article"}]', { ...JSON_TYPE, 'content-encoding': 'gzip' }), expect: refused(400, 415) },
  { name: 'no Content-Type', request: () => epost('[{"url":"http://hostile.invalid/","pageType":"article"}]', {}), expect: refused(415) },
  ...[
    ['a url that is a number', { url: 5 }],
    ['pageType "recipe"', { pageType: 'recipe' }],
    ['a meta of 4,097 bytes', { meta: 'm'.repeat(4097) }],
    ['a meta that is an object', { meta: { a: 1 } }],
    ['articleBodyRaw "yes"', { articleBodyRaw: 'yes' }],
  ].map(([name, o]) => ({ name: name as string, request: () => query(o as Record<string, unknown>), expect: refused() })),
  { name: 'GET /v1/extract', request: () => ({ ...query({}), method: 'GET', body: undefined }), expect: refused(405) },
  { name: 'a path through ../', request: () => ({ ...query({}), target: '/v1/extract/../../v1/extract' }), expect: refused(404) },
  { name: 'a path with NUL', request: () => ({ ...query({}), target: '/v1/extract%00' }), expect: refused(404) },
];

const queryCases: HostileCase[] = [
  { name: 'a file: URL', request: () => query({ url: 'file:///etc/passwd' }), expect: extractionError(/^non-HTTP schemas are not allowed$/) },
  { name: 'a URL that does not parse', request: () => query({ url: 'http://[::1' }), expect: extractionError(/^malformed url$/) },
  { name: 'a URL of 5,000 characters', request: () => query({ url: `http://hostile.invalid/${'a'.repeat(5000)}` }), expect: extractionError(/^URL cannot be longer than 4096 UTF-16 characters$/) },
  { name: 'a URL with a path above U+00FF', items: [3], request: () => query({ url: 'http://example.invalid/日本' }), expect: extractionError(/^Proxy error: nxdomain$/) },
  { name: 'a URL with a query above U+00FF', items: [3], request: () => query({ url: 'http://example.invalid/?q=😀' }), expect: extractionError(/^Proxy error: nxdomain$/) },
  { name: 'a URL with a host above U+00FF (IDNA)', items: [3], request: () => query({ url: 'http://日本.invalid/' }), expect: extractionError(/^Proxy error: nxdomain$/) },
  { name: 'a URL with a bad %-escape', items: [3], request: () => query({ url: 'http://example.invalid/%zz' }), expect: extractionError(/^Proxy error: nxdomain$/) },
];

const ssrfCases: HostileCase[] = URL_SPELLINGS.map((s) => ({
  name: `SSRF: ${s.label} (${s.host})`,
  items: s.items,
  request: (c: Ctx) => query({ url: `http://${s.host}:${c.platform.canary.port}/extract-ssrf` }),
  expect: extractionError(/^Proxy error: domain_forbidden$/),
}));

export const EXTRACTION_CASES: HostileCase[] = [...requestCases, ...queryCases, ...ssrfCases];
