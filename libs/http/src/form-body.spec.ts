import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { decodeForm, formParams, MalformedFormError } from './form-body';

function request(method: string, url: string, body = '', contentType = 'application/x-www-form-urlencoded'): FastifyRequest {
  return { method, url, headers: { 'content-type': contentType }, raw: Readable.from([Buffer.from(body)]) } as unknown as FastifyRequest;
}

describe('decodeForm', () => {
  it('decodes pairs in order, repeated names kept, + as a space, UTF-8 escapes', () => {
    expect(decodeForm('project=1&add_tag=a&add_tag=b+c&&spider=%E6%97%A5%E6%9C%AC&flag')).toEqual([
      ['project', '1'],
      ['add_tag', 'a'],
      ['add_tag', 'b c'],
      ['spider', '日本'],
      ['flag', ''],
    ]);
  });

  it.each([
    ['a bad %-escape', 'project=1&spider=%ZZ'],
    ['a %-escape cut short', 'spider=a%4'],
    ['escaped bytes that are not UTF-8', 'text=%FF%FE'],
    ['an escaped surrogate', 'text=%ED%A0%80'],
    ['a bad escape in a name', '%ZZ=1'],
  ])('refuses %s (URLSearchParams would keep it as written or store U+FFFD)', (_what, form) => {
    expect(() => decodeForm(form)).toThrow(MalformedFormError);
  });
});

describe('formParams', () => {
  it('reads the query string, then the form body', async () => {
    const params = await formParams(request('POST', '/api/run.json?project=1', 'spider=s&add_tag=a&add_tag=b'));
    expect([...params]).toEqual([
      ['project', '1'],
      ['spider', 's'],
      ['add_tag', 'a'],
      ['add_tag', 'b'],
    ]);
  });

  it('refuses a malformed form, in the body or in the query string, with 400', async () => {
    await expect(formParams(request('POST', '/api/run.json', 'project=1&spider=%ZZ'))).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^malformed form/) });
    await expect(formParams(request('POST', '/api/comments/1/2/1/0', 'text=%FF%FE'))).rejects.toMatchObject({ status: 400 });
    await expect(formParams(request('GET', '/api/jobs/list.json?project=1&spider=%FF'))).rejects.toMatchObject({ status: 400 });
  });

  it('refuses a body that is not UTF-8 with 400', async () => {
    const raw = { method: 'POST', url: '/api/run.json', headers: {}, raw: Readable.from([Buffer.from([0x70, 0x3d, 0xff])]) } as unknown as FastifyRequest;
    await expect(formParams(raw)).rejects.toMatchObject({ status: 400, message: 'the request body is not valid UTF-8' });
  });
});
