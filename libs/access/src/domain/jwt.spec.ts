import { createHmac } from 'node:crypto';
import { isPlatformJwt, signJwt, verifiedJwtPayload } from './jwt';

const secret = 'k'.repeat(48);
/** The time a token is checked at. */
const NOW = Date.parse('2026-01-01T00:00:00Z');
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token signed by hand, as the platform's own HS256 code signed them before jose: tokens already handed out keep working. */
function handSigned(header: unknown, payload: unknown, key = secret): string {
  const body = `${b64(header)}.${b64(payload)}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

describe('platform JWTs (jose)', () => {
  it('sign and verify a payload with the secret', async () => {
    const token = await signJwt({ aud: 'job:1/2/3', run: 7 }, secret);
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'HS256' });
    expect(await verifiedJwtPayload(token, secret, NOW)).toEqual({ aud: 'job:1/2/3', run: 7 });
    expect(isPlatformJwt(token)).toBe(true);
  });

  it('take the tokens issued before (same header, same signature)', async () => {
    const token = handSigned({ typ: 'JWT', alg: 'HS256' }, { aud: 'job:1/2/3', run: 7 });
    expect(token).toBe(await signJwt({ aud: 'job:1/2/3', run: 7 }, secret));
    expect(await verifiedJwtPayload(token, secret, NOW)).toEqual({ aud: 'job:1/2/3', run: 7 });
  });

  it('refuse another algorithm, an unsigned token, another secret and an expired token', async () => {
    expect(await verifiedJwtPayload(`${b64({ alg: 'none', typ: 'JWT' })}.${b64({ aud: 'job:1/2/3' })}.`, secret, NOW)).toBeNull();
    const hs512 = `${b64({ alg: 'HS512' })}.${b64({ aud: 'job:1/2/3' })}`;
    expect(await verifiedJwtPayload(`${hs512}.${createHmac('sha512', secret).update(hs512).digest('base64url')}`, secret, NOW)).toBeNull();
    expect(await verifiedJwtPayload(handSigned({ typ: 'JWT', alg: 'HS256' }, { aud: 'x' }, 'another'), secret, NOW)).toBeNull();
    const exp = 1_700_000_000;
    const expiring = await signJwt({ aud: 'x', exp }, secret);
    expect(await verifiedJwtPayload(expiring, secret, exp * 1000 - 1)).toEqual({ aud: 'x', exp });
    expect(await verifiedJwtPayload(expiring, secret, exp * 1000)).toBeNull();
    // A payload that is not a JSON object.
    expect(await verifiedJwtPayload(handSigned({ typ: 'JWT', alg: 'HS256' }, [1, 2]), secret, NOW)).toBeNull();
    expect(await verifiedJwtPayload('', secret, NOW)).toBeNull();
  });

  it('tell tokens from API keys', () => {
    expect(isPlatformJwt('0123456789abcdef0123456789abcdef')).toBe(false);
    expect(isPlatformJwt(`${b64({ alg: 'none' })}.${b64({})}.`)).toBe(false);
  });
});
