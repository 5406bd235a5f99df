import { randomBytes } from 'node:crypto';
import { signJwt, verifiedJwtPayload } from './jwt';

/**
 * Console sessions: what the web console (libs/console) keeps in its HttpOnly cookie
 * after a sign-in with an API key. A JWT (HS256, the platform secret that also signs job
 * and proxy tokens) with `{"aud": "console:<key id>", "exp": <seconds>, "csrf": <random>}`:
 * no key in the cookie, and the session names its key, so a revoked key ends its
 * sessions within the access cache time. `csrf` is the proof a changing request must
 * repeat in the X-CSRF-Token header: a page of another site can make the browser send
 * the cookie (were SameSite ever missing) but can never read the proof.
 */
const AUDIENCE = 'console:';

export interface ConsoleSession {
  keyId: string;
  csrf: string;
  expiresAtMs: number;
}

/** A new session of `keyId` until `expiresAtMs` (rounded up to the second), with a fresh CSRF proof. */
export async function mintSessionToken(keyId: string, expiresAtMs: number, secret: string): Promise<{ token: string; session: ConsoleSession }> {
  const exp = Math.ceil(expiresAtMs / 1000);
  const csrf = randomBytes(18).toString('base64url');
  return { token: await signJwt({ aud: `${AUDIENCE}${keyId}`, exp, csrf }, secret), session: { keyId, csrf, expiresAtMs: exp * 1000 } };
}

/** The session a token carries, or null when it is not ours, malformed or expired at `nowMs`. */
export async function sessionOfToken(token: string, secret: string, nowMs: number): Promise<ConsoleSession | null> {
  const payload = await verifiedJwtPayload(token, secret, nowMs);
  if (payload === null) return null;
  const { aud, exp, csrf } = payload;
  if (typeof aud !== 'string' || !aud.startsWith(AUDIENCE) || typeof exp !== 'number' || exp * 1000 <= nowMs || typeof csrf !== 'string') return null;
  return { keyId: aud.slice(AUDIENCE.length), csrf, expiresAtMs: exp * 1000 };
}
