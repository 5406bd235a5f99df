import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Job tokens as the original issues them: a JWT (HS256) whose payload is
 * `{"aud": "job:<key>"}`. It is a pure function of the key and the secret, so replays
 * and several API processes agree; it is honoured only while the job runs.
 */
const HEADER = b64(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));

function b64(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

export function jobToken(jobKey: string, secret: string): string {
  const body = `${HEADER}.${b64(JSON.stringify({ aud: `job:${jobKey}` }))}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** The job key a token was issued for, or null when it is not one of ours. */
export function jobOfToken(token: string, secret: string): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const expected = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const aud = (JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { aud?: unknown }).aud;
    return typeof aud === 'string' && aud.startsWith('job:') ? aud.slice(4) : null;
  } catch {
    return null;
  }
}
