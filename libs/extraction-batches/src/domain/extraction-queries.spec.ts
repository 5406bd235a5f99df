import { ManualClock, SequentialIds, systemClock, systemIds } from '@crawlhub/contracts';
import { acceptQueries, checkQueryUrl, ExtractionRequestError, MAX_BODY_BYTES } from './extraction-queries';

/** Where the stamps do not matter. */
const SYSTEM_STAMPS = { clock: systemClock, ids: systemIds };
const body = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
function refusal(v: unknown): { status: number; slug: string; title: string } {
  try {
    acceptQueries(body(v), SYSTEM_STAMPS);
  } catch (e) {
    if (e instanceof ExtractionRequestError) return { status: e.status, slug: e.slug, title: e.message };
    throw e;
  }
  throw new Error('accepted');
}

describe('acceptQueries', () => {
  it('accepts a batch, echoes each query as sent and gives it an id like the original’s', () => {
    const sent = [
      { url: 'https://Example.com/a?x=1', pageType: 'article', meta: 'q1', fullHtml: false },
      { url: 'http://shop.test:8080/p/1', pageType: 'product', articleBodyRaw: false },
    ];
    const [a, p] = acceptQueries(body(sent), { clock: new ManualClock(1_564_747_029_122), ids: new SequentialIds() });
    expect(a).toMatchObject({ domain: 'example.com', userQuery: sent[0], url: 'https://example.com/a?x=1', pageType: 'article', articleBodyRaw: true, error: null });
    expect(a.id).toMatch(/^1564747029122-[0-9a-f]{16}$/);
    expect(p).toMatchObject({ domain: 'shop.test', pageType: 'product', articleBodyRaw: false, error: null });
    expect(p.id).not.toBe(a.id);
  });

  it('refuses an empty body, bad JSON and a non-array with their problem types', () => {
    expect(refusal('  ')).toMatchObject({ status: 400, slug: 'empty-request' });
    expect(refusal('[{"url": ')).toMatchObject({ status: 400, slug: 'malformed-json' });
    expect(refusal({ url: 'https://a.test/', pageType: 'article' })).toMatchObject({ status: 400, slug: 'malformed-request' });
    expect(refusal([])).toMatchObject({ status: 400, slug: 'malformed-request' });
  });

  it('refuses bytes that are not UTF-8 as malformed JSON, instead of queueing a URL holding U+FFFD', () => {
    const bytes = Buffer.concat([Buffer.from('[{"url":"http://a.test/'), Buffer.from([0xc0, 0xff]), Buffer.from('","pageType":"article"}]')]);
    expect(() => acceptQueries(bytes, SYSTEM_STAMPS)).toThrow(expect.objectContaining({ status: 400, slug: 'malformed-json', message: 'Could not parse request JSON: not valid UTF-8' }));
  });

  it('refuses 101 queries with 413 queries-limit-reached and the original’s title', () => {
    const many = Array.from({ length: 101 }, () => ({ url: 'https://a.test/', pageType: 'article' }));
    expect(refusal(many)).toEqual({ status: 413, slug: 'queries-limit-reached', title: 'Limit of 100 queries per request exceeded' });
    expect(acceptQueries(body(many.slice(1)), SYSTEM_STAMPS)).toHaveLength(100);
  });

  it.each([
    ['no url', { pageType: 'article' }, 'query 1: "url" (a string) is required'],
    ['a job posting', { url: 'https://a.test/', pageType: 'jobPosting' }, 'query 1: "pageType" must be "article" or "product"'],
    ['a numeric meta', { url: 'https://a.test/', pageType: 'article', meta: 5 }, 'query 1: "meta" must be a string'],
    ['meta over 4 KB (counted in UTF-8 bytes)', { url: 'https://a.test/', pageType: 'article', meta: 'é'.repeat(2049) }, 'query 1: "meta" is longer than 4096 bytes'],
    ['a string articleBodyRaw', { url: 'https://a.test/', pageType: 'article', articleBodyRaw: 'no' }, 'query 1: "articleBodyRaw" must be true or false'],
  ])('refuses the whole batch when a query has %s, naming the query', (_why, bad, title) => {
    expect(refusal([{ url: 'https://a.test/', pageType: 'article' }, bad])).toEqual({ status: 400, slug: 'malformed-request', title: `Unparseable request: ${title}` });
  });

  it('takes meta of exactly 4 KB', () => {
    expect(acceptQueries(body([{ url: 'https://a.test/', pageType: 'article', meta: 'é'.repeat(2048) }]), SYSTEM_STAMPS)).toHaveLength(1);
  });

  it('makes a bad URL a query-level error, leaving the other queries to run', () => {
    const [bad, scheme, good] = acceptQueries(body([{ url: 'not a url', pageType: 'article' }, { url: 'ftp://a.test/f', pageType: 'product' }, { url: 'https://a.test/', pageType: 'article' }]), SYSTEM_STAMPS);
    expect([bad.error, bad.domain]).toEqual(['malformed url', '']);
    expect(scheme.error).toBe('non-HTTP schemas are not allowed');
    expect(good.error).toBeNull();
  });

  it('knows the body limit of the spec', () => {
    expect(MAX_BODY_BYTES).toBe(131_072);
  });
});

describe('checkQueryUrl', () => {
  it('refuses URLs longer than 4096 UTF-16 characters', () => {
    expect(checkQueryUrl(`https://a.test/${'x'.repeat(4096 - 15)}`).error).toBeNull();
    expect(checkQueryUrl(`https://a.test/${'x'.repeat(4097 - 15)}`).error).toBe('URL cannot be longer than 4096 UTF-16 characters');
  });

  it('normalises a URL as a browser does: IDNA host, path and query percent-encoded in UTF-8', () => {
    expect(checkQueryUrl('http://example.invalid/日本')).toEqual({ url: 'http://example.invalid/%E6%97%A5%E6%9C%AC', domain: 'example.invalid', error: null });
    expect(checkQueryUrl('http://日本.test/ä?q=ü ß')).toEqual({ url: 'http://xn--wgv71a.test/%C3%A4?q=%C3%BC%20%C3%9F', domain: 'xn--wgv71a.test', error: null });
  });
});
