import { isPlatformJwt, signJwt, verifiedJwtPayload } from './jwt';

/**
 * Proxy tokens: how the platform's own workers use the proxy on behalf of a user without
 * carrying the user's API key (never put in the log). A JWT (HS256, the platform secret
 * that also signs job tokens) with `{"aud": "proxy:<key id>", "exp": <seconds>}`, sent as
 * the Proxy-Authorization user name. The proxy resolves it to that key's principal while
 * the key lives and the token has not expired.
 */
const AUDIENCE = 'proxy:';

/** A token for `keyId`, valid until `expiresAtMs` (rounded up to the second). */
export function mintProxyToken(keyId: string, expiresAtMs: number, secret: string): Promise<string> {
  return signJwt({ aud: `${AUDIENCE}${keyId}`, exp: Math.ceil(expiresAtMs / 1000) }, secret);
}

/** Whether a credential has the shape of a token (API keys are hex: never). */
export function looksLikeProxyToken(credential: string): boolean {
  return isPlatformJwt(credential);
}

/** The key id a token was issued for, or null when it is not ours, malformed or expired at `nowMs`. */
export async function keyIdOfProxyToken(token: string, secret: string, nowMs: number): Promise<string | null> {
  const payload = await verifiedJwtPayload(token, secret, nowMs);
  if (payload === null) return null;
  const { aud, exp } = payload;
  // jose has refused an `exp` that passed; a token without one never expires, so it is not ours.
  if (typeof aud !== 'string' || !aud.startsWith(AUDIENCE) || exp === undefined) return null;
  return aud.slice(AUDIENCE.length);
}

/** How long the tokens a worker mints stay valid, at the least (so one serves many requests). */
const REUSE_MS = 10 * 60_000;

/**
 * A worker's proxy tokens, one per key, reused while it is valid long enough: a browser
 * kept across renders then goes on with the credentials it has (no new proxy
 * authentication per render), and most requests cost no signature.
 */
export class ProxyTokens {
  private readonly byKey = new Map<string, { token: Promise<string>; expiresAtMs: number }>();

  constructor(private readonly secret: string, private readonly now: () => number) {}

  /** A token for `keyId` valid at least until `neededUntilMs`. */
  for(keyId: string, neededUntilMs: number): Promise<string> {
    const kept = this.byKey.get(keyId);
    if (kept && kept.expiresAtMs >= neededUntilMs) return kept.token;
    const expiresAtMs = Math.max(neededUntilMs, this.now() + REUSE_MS);
    const token = mintProxyToken(keyId, expiresAtMs, this.secret);
    // Tokens of keys not seen for a while are dropped with the map's oldest entries.
    if (this.byKey.size >= 10_000) this.byKey.delete(this.byKey.keys().next().value as string);
    this.byKey.set(keyId, { token, expiresAtMs });
    return token;
  }
}
