import { systemClock } from '@crawlhub/contracts';
import { loadConfig } from '@crawlhub/config';
import { AccessService } from './access.service';
import { AccessKey, digestOf, keyIdOf } from './domain/access-key';
import { mintProxyToken } from './domain/proxy-token';
import { AccessKeysView } from './ports/access-keys.view';

describe('AccessService', () => {
  const secret = 'a'.repeat(32);
  const key: AccessKey = { keyId: keyIdOf(secret), digest: digestOf(secret), admin: false, projects: [3], label: 'k', capabilities: ['browser'] };
  let keys: AccessKey[];
  const view = {
    findByDigest: async (digest: string) => keys.find((k) => k.digest === digest) ?? null,
    findById: async (id: string) => keys.find((k) => k.keyId === id) ?? null,
  } as unknown as AccessKeysView;
  const signing = 'platform-secret';
  const service = () => new AccessService(view, loadConfig({}), systemClock);

  beforeEach(() => (keys = [key]));

  it('resolves a key and a proxy token of it to the same principal', async () => {
    const s = service();
    const expected = { id: key.keyId, admin: false, projects: [3], capabilities: ['browser'] };
    expect(await s.authenticate(secret)).toEqual(expected);
    expect(await s.authenticateProxyToken(await mintProxyToken(key.keyId, Date.now() + 60_000, signing), signing)).toEqual(expected);
    expect(await s.authenticate('b'.repeat(32))).toBeNull();
  });

  it('never takes a key id for a key, even once a proxy token of that key was seen', async () => {
    const s = service();
    expect(await s.authenticateProxyToken(await mintProxyToken(key.keyId, Date.now() + 60_000, signing), signing)).not.toBeNull();
    expect(await s.authenticate(key.keyId)).toBeNull();
  });

  it('refuses expired tokens, tokens signed with another secret, and tokens of a key that is gone', async () => {
    const s = service();
    expect(await s.authenticateProxyToken(await mintProxyToken(key.keyId, Date.now() - 2_000, signing), signing)).toBeNull();
    expect(await s.authenticateProxyToken(await mintProxyToken(key.keyId, Date.now() + 60_000, 'other'), signing)).toBeNull();
    keys = [];
    expect(await s.authenticateProxyToken(await mintProxyToken(key.keyId, Date.now() + 60_000, signing), signing)).toBeNull();
  });
});
