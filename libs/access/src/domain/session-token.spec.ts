import { mintProxyToken } from './proxy-token';
import { mintSessionToken, sessionOfToken } from './session-token';

describe('console session tokens', () => {
  const secret = 's'.repeat(64);
  const now = 1_700_000_000_000;

  it('name their key and CSRF proof until they expire', async () => {
    const { token, session } = await mintSessionToken('key-0123456789ab', now + 60_000, secret);
    expect(await sessionOfToken(token, secret, now)).toEqual(session);
    expect(session.csrf.length).toBeGreaterThanOrEqual(24);
    expect(await sessionOfToken(token, secret, now + 60_000)).toBeNull();
  });

  it('are refused when signed with another secret, and a proxy token is no session', async () => {
    const { token } = await mintSessionToken('key-0123456789ab', now + 60_000, secret);
    expect(await sessionOfToken(token, 'x'.repeat(64), now)).toBeNull();
    expect(await sessionOfToken(await mintProxyToken('key-0123456789ab', now + 60_000, secret), secret, now)).toBeNull();
  });

  it('get a new CSRF proof each time', async () => {
    const [a, b] = await Promise.all([mintSessionToken('key-a', now + 1000, secret), mintSessionToken('key-a', now + 1000, secret)]);
    expect(a.session.csrf).not.toBe(b.session.csrf);
  });
});
