import { keyIdOfProxyToken, looksLikeProxyToken, mintProxyToken } from './proxy-token';

describe('proxy tokens', () => {
  const secret = 's'.repeat(64);
  const now = 1_700_000_000_000;

  it('name the key they were minted for until they expire', () => {
    const token = mintProxyToken('key-0123456789ab', now + 60_000, secret);
    expect(looksLikeProxyToken(token)).toBe(true);
    expect(keyIdOfProxyToken(token, secret, now)).toBe('key-0123456789ab');
    expect(keyIdOfProxyToken(token, secret, now + 59_000)).toBe('key-0123456789ab');
    expect(keyIdOfProxyToken(token, secret, now + 60_000)).toBeNull();
  });

  it('are refused when signed with another secret or altered', () => {
    const token = mintProxyToken('key-0123456789ab', now + 60_000, secret);
    expect(keyIdOfProxyToken(token, 'x'.repeat(64), now)).toBeNull();
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ aud: 'proxy:key-admin', exp: Math.ceil(now / 1000) + 60 })).toString('base64url');
    expect(keyIdOfProxyToken(`${h}.${forged}.${s}`, secret, now)).toBeNull();
    expect(keyIdOfProxyToken('not.a.token', secret, now)).toBeNull();
  });

  it('are never mistaken for API keys', () => {
    expect(looksLikeProxyToken('0123456789abcdef0123456789abcdef')).toBe(false);
  });
});
