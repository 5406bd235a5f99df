import { mintProxyToken } from './proxy-token';
import { mintSessionToken, sessionOfToken } from './session-token';

describe('console session tokens', () => {
  const secret = 's'.repeat(64);
  const now = 1_700_000_000_000;

  it('name their key and CSRF proof until they expire', () => {
    const { token, session } = mintSessionToken('key-0123456789ab', now + 60_000, secret);
    expect(sessionOfToken(token, secret, now)).toEqual(session);
    expect(session.csrf.length).toBeGreaterThanOrEqual(24);
    expect(sessionOfToken(token, secret, now + 60_000)).toBeNull();
  });

  it('are refused when signed with another secret, and a proxy token is no session', () => {
    const { token } = mintSessionToken('key-0123456789ab', now + 60_000, secret);
    expect(sessionOfToken(token, 'x'.repeat(64), now)).toBeNull();
    expect(sessionOfToken(mintProxyToken('key-0123456789ab', now + 60_000, secret), secret, now)).toBeNull();
  });

  it('get a new CSRF proof each time', () => {
    expect(mintSessionToken('key-a', now + 1000, secret).session.csrf).not.toBe(mintSessionToken('key-a', now + 1000, secret).session.csrf);
  });
});
