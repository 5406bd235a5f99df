import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The platform's own tokens (job tokens, proxy tokens) are compact JWTs signed with HS256
 * and the platform secret (JOB_TOKEN_SECRET). Only the platform issues and reads them, so
 * this is the whole of JWT they need: one header, a JSON payload, one algorithm.
 */
export const JWT_HEADER = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'HS256' })).toString('base64url');

function signature(body: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const body = `${JWT_HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${body}.${signature(body, secret).toString('base64url')}`;
}

/** The payload of a token this secret signed, or null (malformed, another header, a wrong signature). */
export function verifiedJwtPayload(token: string, secret: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== JWT_HEADER) return null;
  const given = Buffer.from(parts[2], 'base64url');
  const expected = signature(`${parts[0]}.${parts[1]}`, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
