import { EXTRACTION_COMPLETED, EXTRACTION_REQUESTED, extractionEventProblem } from './extraction.topic';

const id = '1564747029122-9e02a1868d70b7a1';
const common = { id, batch: '0f8fad5b-d9cb-469f-a165-70867728950e', user: 'key-0123456789ab', pageType: 'article' };
const requested = { ...common, url: 'https://example.com/a', articleBodyRaw: true, deadline: 1_700_000_600_000 };
const completed = { ...common, worker: 'host:1', result: { url: 'https://example.com/a', probability: 0.9 }, error: null, billable: true, downloadMs: 12, extractMs: 3 };

describe('extractionEventProblem', () => {
  it('accepts a request, a result and an error result', () => {
    expect(extractionEventProblem({ type: EXTRACTION_REQUESTED, key: id, data: requested })).toBeNull();
    expect(extractionEventProblem({ type: EXTRACTION_COMPLETED, key: id, data: completed })).toBeNull();
    expect(extractionEventProblem({ type: EXTRACTION_COMPLETED, key: id, data: { ...completed, result: null, error: 'Downloader error: http404' } })).toBeNull();
  });

  it('refuses an event keyed by another id (its partition would not be its result’s)', () => {
    expect(extractionEventProblem({ type: EXTRACTION_REQUESTED, key: '1564747029122-0000000000000000', data: requested })).toMatch(/^the key "1564747029122-0000000000000000" is not/);
  });

  it.each([
    ['an id without its time', { id: '9e02a1868d70b7a1' }],
    ['a job posting', { pageType: 'jobPosting' }],
    ['a file URL', { url: 'file:///etc/passwd' }],
    ['no deadline', { deadline: undefined }],
    ['a string articleBodyRaw', { articleBodyRaw: 'true' }],
  ])('refuses a request with %s', (_why, change) => {
    const data = { ...requested, ...change };
    expect(extractionEventProblem({ type: EXTRACTION_REQUESTED, key: data.id, data })).not.toBeNull();
  });

  it('refuses a result with both or neither of result and error', () => {
    expect(extractionEventProblem({ type: EXTRACTION_COMPLETED, key: id, data: { ...completed, error: 'query timed out' } })).toMatch(/not exactly one of result and error/);
    expect(extractionEventProblem({ type: EXTRACTION_COMPLETED, key: id, data: { ...completed, result: null } })).toMatch(/not exactly one of result and error/);
    expect(extractionEventProblem({ type: 'extraction.started', key: id, data: completed })).toBe('unknown type extraction.started');
  });
});
