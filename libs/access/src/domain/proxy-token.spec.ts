import { keyIdOfProxyToken, looksLikeProxyToken, mintProxyToken, ProxyTokens } from './proxy-token';

describe('proxy tokens', () => {
  const secret = 's'.repeat(64);
  const now = 1_700_000_000_000;

  it('name the key they were minted for until they expire', async () => {
    const token = await mintProxyToken('key-0123456789ab', now + 60_000, secret);
    expect(looksLikeProxyToken(token)).toBe(true);
    expect(await keyIdOfProxyToken(token, secret, now)).toBe('key-0123456789ab');
    expect(await keyIdOfProxyToken(token, secret, now + 59_000)).toBe('key-0123456789ab');
    expect(await keyIdOfProxyToken(token, secret, now + 60_000)).toBeNull();
  });

  it('are refused when signed with another secret or altered', async () => {
    const token = await mintProxyToken('key-0123456789ab', now + 60_000, secret);
    expect(await keyIdOfProxyToken(token, 'x'.repeat(64), now)).toBeNull();
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ aud: 'proxy:key-admin', exp: Math.ceil(now / 1000) + 60 })).toString('base64url');
    expect(await keyIdOfProxyToken(`${h}.${forged}.${s}`, secret, now)).toBeNull();
    expect(await keyIdOfProxyToken('not.a.token', secret, now)).toBeNull();
  });

  it('are never mistaken for API keys', () => {
    expect(looksLikeProxyToken('0123456789abcdef0123456789abcdef')).toBe(false);
  });
});

describe('ProxyTokens', () => {
  it('reuses a key’s token while it is valid long enough, and mints a new one past that', async () => {
    let now = 1_700_000_000_000;
    const tokens = new ProxyTokens('s3cret', () => now);
    const first = await tokens.for('key-a', now + 60_000);
    expect(await keyIdOfProxyToken(first, 's3cret', now + 9 * 60_000)).toBe('key-a');
    expect(await tokens.for('key-a', now + 5 * 60_000)).toBe(first);
    expect(await tokens.for('key-b', now + 60_000)).not.toBe(first);
    // A deadline past the kept token's end needs a new one, valid until then.
    const later = await tokens.for('key-a', now + 20 * 60_000);
    expect(later).not.toBe(first);
    expect(await keyIdOfProxyToken(later, 's3cret', now + 20 * 60_000 - 1)).toBe('key-a');
    now += 30 * 60_000;
    expect(await keyIdOfProxyToken(later, 's3cret', now)).toBeNull();
    expect(await keyIdOfProxyToken(await tokens.for('key-a', now + 1000), 's3cret', now)).toBe('key-a');
  });
});
