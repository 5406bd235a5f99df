import type { FetchCompleted } from '@crawlhub/contracts';
import { fetchResponseOf, isPlainText } from './fetch-response';

const done = (over: Partial<FetchCompleted>): FetchCompleted => ({
  id: '00000000-0000-0000-0000-000000000000', worker: 'w', url: 'http://a.test/', originalStatus: 200, headers: {}, proxyStatus: 'success', error: null, body: '', screenshot: null, ...over,
});

describe('fetch response bodies', () => {
  it('are plain for UTF-8 text types and base64 for everything else', () => {
    const text = Buffer.from('<p>héllo</p>');
    expect(isPlainText('text/html; charset=UTF-8', text)).toBe(true);
    expect(isPlainText('application/json', text)).toBe(true);
    expect(isPlainText('application/problem+json', text)).toBe(true);
    expect(isPlainText('text/html; charset=iso-8859-1', text)).toBe(false);
    expect(isPlainText('image/png', text)).toBe(false);
    expect(isPlainText(undefined, text)).toBe(false);
    expect(isPlainText('text/plain', Buffer.from([0x66, 0xff, 0xfe]))).toBe(false);
  });

  it('carry the status under both names, and a failure its code', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const ok = fetchResponseOf(done({ headers: { 'Content-Type': 'image/png' }, body: png.toString('base64') }));
    expect(ok).toMatchObject({ proxy_status: 'success', crawlera_status: 'success', body_encoding: 'base64', original_status: 200 });
    expect(Buffer.from(ok.body, 'base64')).toEqual(png);
    expect(ok).not.toHaveProperty('crawlera_error');
    const failed = fetchResponseOf(done({ proxyStatus: 'fail', originalStatus: 504, error: { code: 'timeout', message: 'Connection timed out' }, body: Buffer.from('Connection timed out').toString('base64') }));
    expect(failed).toMatchObject({ proxy_status: 'fail', crawlera_status: 'fail', crawlera_error: 'timeout', proxy_error: 'timeout', body_encoding: 'plain', body: 'Connection timed out' });
  });
});
