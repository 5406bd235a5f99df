import { downloadError, isBillable } from './query-errors';

const ok = (status: number) => ({ error: null, originalStatus: status });
const failed = (code: string, retryAfterSeconds?: number) => ({ error: { code, message: 'm', ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) }, originalStatus: 502 });

describe('downloadError', () => {
  it('lets 2xx pages through', () => {
    expect(downloadError(ok(200), 'a.test')).toBeNull();
    expect(downloadError(ok(203), 'a.test')).toBeNull();
  });

  it('words website statuses as the original does (redirects are not followed)', () => {
    expect(downloadError(ok(404), 'a.test')).toBe('Downloader error: http404');
    expect(downloadError(ok(500), 'a.test')).toBe('Downloader error: http500');
    expect(downloadError(ok(304), 'a.test')).toBe('Downloader error: http304');
    expect(downloadError(ok(301), 'a.test')).toBe('Downloader error: No response (network301)');
    expect(downloadError(ok(302), 'a.test')).toBe('Downloader error: No response (network301)');
  });

  it('words proxy failures with the original’s codes', () => {
    expect(downloadError(failed('econnrefused'), 'a.test')).toBe('Proxy error: econnrefused');
    expect(downloadError(failed('banned'), 'a.test')).toBe('Proxy error: banned');
    expect(downloadError(failed('nxdomain'), 'a.test')).toBe('Proxy error: nxdomain');
    expect(downloadError(failed('tls_error'), 'a.test')).toBe('Proxy error: ssl_tunnel_error');
    expect(downloadError(failed('econnreset'), 'a.test')).toBe('Downloader error: No response (network5)');
  });

  it('turns the proxy’s throttling into "Domain … is occupied" with its Retry-After', () => {
    expect(downloadError(failed('/limits/over-domain-limit', 23.5), 'shop.test')).toBe('Domain shop.test is occupied, please retry in 23.5 seconds');
  });
});

describe('isBillable', () => {
  it('bills extractions and download errors, not the original’s non-billable errors', () => {
    expect(isBillable(null)).toBe(true);
    expect(isBillable('Downloader error: http404')).toBe(true);
    expect(isBillable('malformed url')).toBe(false);
    expect(isBillable('non-HTTP schemas are not allowed')).toBe(false);
    expect(isBillable('URL cannot be longer than 4096 UTF-16 characters')).toBe(false);
    expect(isBillable('Domain shop.test is occupied, please retry in 12 seconds')).toBe(false);
  });
});
