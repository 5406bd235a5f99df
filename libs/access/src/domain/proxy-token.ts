import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Proxy tokens: how the platform's own workers use the proxy on behalf of a user without
 * carrying the user's API key (never put in the log). A JWT (HS256, the platform secret
 * that also signs job tokens) with `{"aud": "proxy:<key id>", "exp": <seconds>}`, sent as
 * the Proxy-Authorization user name. The proxy resolves it to that key's principal while
 * the key lives and the token has not expired.
 */
const HEADER = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'HS256' })).toString('base64url');
const AUDIENCE = 'proxy:';

function sign(body: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** A token for `keyId`, valid until `expiresAtMs` (rounded up to the second). */
export function mintProxyToken(keyId: string, expiresAtMs: number, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ aud: `${AUDIENCE}${keyId}`, exp: Math.ceil(expiresAtMs / 1000) })).toString('base64url');
  const body = `${HEADER}.${payload}`;
  return `${body}.${sign(body, secret).toString('base64url')}`;
}

/** Whether a credential has the shape of a token (API keys are hex: never). */
export function looksLikeProxyToken(credential: string): boolean {
  return credential.startsWith(`${HEADER}.`);
}

/** The key id a token was issued for, or null when it is not ours, malformed or expired at `nowMs`. */
export function keyIdOfProxyToken(token: string, secret: string, nowMs: number): string | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const given = Buffer.from(parts[2], 'base64url');
  const expected = sign(`${parts[0]}.${parts[1]}`, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { aud, exp } = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { aud?: unknown; exp?: unknown };
    if (typeof aud !== 'string' || !aud.startsWith(AUDIENCE) || typeof exp !== 'number' || exp * 1000 <= nowMs) return null;
    return aud.slice(AUDIENCE.length);
  } catch {
    return null;
  }
}
