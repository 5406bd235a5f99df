import { decodeProtectedHeader, errors, JWTPayload, jwtVerify, SignJWT } from 'jose';

/**
 * The platform's own tokens (job tokens, proxy tokens) are compact JWTs signed with HS256
 * and the platform secret (JOB_TOKEN_SECRET), made and checked by jose. Only the platform
 * issues and reads them: one algorithm, and a token naming any other is refused.
 */
const ALGORITHM = 'HS256';

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export function signJwt(payload: JWTPayload, secret: string): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ typ: 'JWT', alg: ALGORITHM }).sign(keyOf(secret));
}

/**
 * The payload of a token this secret signed, or null (malformed, another algorithm, a wrong
 * signature, or an `exp` not after `nowMs`).
 */
export async function verifiedJwtPayload(token: string, secret: string, nowMs: number): Promise<JWTPayload | null> {
  try {
    return (await jwtVerify(token, keyOf(secret), { algorithms: [ALGORITHM], currentDate: new Date(nowMs) })).payload;
  } catch (e) {
    if (e instanceof errors.JOSEError) return null;
    throw e;
  }
}

/** Whether a credential has the shape of one of our tokens (a JWS header naming HS256); API keys (hex) never do. */
export function isPlatformJwt(credential: string): boolean {
  // A compact JWS has exactly two dots; anything else (every API key) is answered without
  // jose, whose refusal throws: an exception per request cost the proxy 9% of its CPU.
  const first = credential.indexOf('.');
  const second = first < 0 ? -1 : credential.indexOf('.', first + 1);
  if (second < 0 || credential.indexOf('.', second + 1) >= 0) return false;
  try {
    return decodeProtectedHeader(credential).alg === ALGORITHM;
  } catch {
    return false;
  }
}
