import { fetchParamsOf, FetchInputError, parseForm, parseJson } from './fetch-params';

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof FetchInputError ? e.code : `not an input error: ${e}`;
  }
  return 'accepted';
};

describe('fetch parameters', () => {
  it('take what the original middleware sends as JSON', () => {
    const p = fetchParamsOf(parseJson(JSON.stringify({ url: 'https://site.test/a?b=1', method: 'post', body: 'x=1', headers: { 'X-A': '1', Accept: ['a', 'b'] }, region: 'US', device: 'mobile', render: 'no', job_id: '1/2/3' })));
    expect(p).toEqual({ url: 'https://site.test/a?b=1', method: 'POST', body: 'x=1', headers: [['X-A', '1'], ['Accept', 'a'], ['Accept', 'b']], region: 'us', device: 'mobile', jobId: '1/2/3', render: false, screenshot: false });
  });

  it('take a form, where a screenshot implies rendering', () => {
    const p = fetchParamsOf(parseForm('url=http%3A%2F%2Fsite.test%2F&screenshot=true'));
    expect(p).toMatchObject({ url: 'http://site.test/', method: 'GET', render: true, screenshot: true, headers: [], body: null });
  });

  it('refuse bad input with a code per problem', () => {
    expect(codeOf(() => fetchParamsOf({}))).toBe('missing_url');
    expect(codeOf(() => fetchParamsOf({ url: 'ftp://site.test/' }))).toBe('bad_url');
    expect(codeOf(() => fetchParamsOf({ url: 'not a url' }))).toBe('bad_url');
    expect(codeOf(() => fetchParamsOf({ url: 'http://site.test/', render: 'maybe' }))).toBe('bad_parameter');
    expect(codeOf(() => fetchParamsOf({ url: 'http://site.test/', headers: '{nope' }))).toBe('bad_parameter');
    expect(codeOf(() => fetchParamsOf({ url: 'http://site.test/', job_id: 'x' }))).toBe('bad_parameter');
    expect(codeOf(() => parseJson('{"url":'))).toBe('bad_json');
    expect(codeOf(() => parseJson('[1]'))).toBe('bad_json');
    expect(codeOf(() => parseForm('url=%zz'))).toBe('bad_form');
  });

  it('refuse a method that is given but empty or not a string (it is not "absent")', () => {
    expect(fetchParamsOf({ url: 'http://site.test/', method: null }).method).toBe('GET');
    expect(codeOf(() => fetchParamsOf({ url: 'http://site.test/', method: '' }))).toBe('bad_parameter');
    expect(codeOf(() => fetchParamsOf({ url: 'http://site.test/', method: 7 }))).toBe('bad_parameter');
    expect(codeOf(() => fetchParamsOf({ url: 'http://site.test/', method: 'CONNECT' }))).toBe('bad_parameter');
  });

  it('read forms with the strict decoder of every API: escaped bytes that are not UTF-8 are refused', () => {
    expect(codeOf(() => parseForm('url=http%3A%2F%2Fsite.test%2F%FF'))).toBe('bad_form');
    expect(codeOf(() => parseForm('url=a&url=b'))).toBe('bad_form');
    expect(parseForm('url=http%3A%2F%2Fsite.test%2F%E6%97%A5&render=on')).toEqual({ url: 'http://site.test/日', render: 'on' });
  });
});
