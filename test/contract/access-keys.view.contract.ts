import { AccessKey, AccessKeysView, digestOf, keyIdOf } from '@crawlhub/access';
import { eachViewFixture, FakeProjector, ViewFixture, ViewHarness } from './view-fixture';

function key(secret: string, over: Partial<AccessKey> = {}): AccessKey {
  return { keyId: keyIdOf(secret), digest: digestOf(secret), admin: false, projects: [1, 7], label: `key ${secret}`, capabilities: [], ...over };
}

export function accessKeysViewContract(name: string, harness: ViewHarness<AccessKeysView>): void {
  describe(`AccessKeysView contract: ${name}`, () => {
    let f: ViewFixture<AccessKeysView>;
    let view: AccessKeysView;
    let p: FakeProjector;
    eachViewFixture(harness, (fixture, projector) => ((f = fixture), (view = fixture.view), (p = projector)));

    const add = (k: AccessKey) => p.batch((at) => view.add(at, k));
    const revoke = (keyId: string) => p.batch((at) => view.revoke(at, keyId));
    const ids = async () => (await view.list()).map((k) => k.keyId);

    it('adds keys and finds them by digest', async () => {
      expect(await view.list()).toEqual([]);
      const a = key('a'.repeat(32));
      const admin = key('b'.repeat(32), { admin: true, projects: [], label: 'admin' });
      await add(a);
      await add(admin);
      expect(await view.findByDigest(a.digest)).toEqual(a);
      expect(await view.findByDigest(admin.digest)).toEqual(admin);
      expect(await view.findByDigest(digestOf('c'.repeat(32)))).toBeNull();
      expect(await view.findByDigest('')).toBeNull();
      expect(await view.findById(a.keyId)).toEqual(a);
      expect(await view.findById(keyIdOf('c'.repeat(32)))).toBeNull();
    });

    it('lists keys ordered by id', async () => {
      const secrets = ['s1', 's2', 's3', 's4', 's5'].map((s) => s.padEnd(32, '0'));
      for (const s of secrets) await add(key(s));
      const list = await view.list();
      expect(list.map((k) => k.keyId)).toEqual(secrets.map(keyIdOf).sort());
      expect(list.find((k) => k.keyId === keyIdOf(secrets[2]))).toEqual(key(secrets[2]));
    });

    it('adding a key again replaces it', async () => {
      const k = key('d'.repeat(32));
      await add(k);
      await add({ ...k, projects: [2], label: 'renamed' });
      expect(await view.list()).toEqual([{ ...k, projects: [2], label: 'renamed' }]);
      expect(await view.findByDigest(k.digest)).toEqual({ ...k, projects: [2], label: 'renamed' });
    });

    it('revokes keys; revoking an unknown key is harmless', async () => {
      const a = key('e'.repeat(32));
      const b = key('f'.repeat(32));
      await add(a);
      await add(b);
      await revoke(a.keyId);
      expect(await view.findByDigest(a.digest)).toBeNull();
      expect(await view.findById(a.keyId)).toBeNull();
      expect(await view.findByDigest(b.digest)).toEqual(b);
      expect(await ids()).toEqual([b.keyId]);
      await revoke('key-unknown');
      await revoke(a.keyId);
      expect(await ids()).toEqual([b.keyId]);
      // The same key created again later is live again.
      await add(a);
      expect(await view.findByDigest(a.digest)).toEqual(a);
      expect(await ids()).toEqual([a.keyId, b.keyId].sort());
    });

    it('sets the capabilities of live keys only', async () => {
      const a = key('3'.repeat(32), { capabilities: ['browser'] });
      const b = key('4'.repeat(32));
      await add(a);
      await add(b);
      expect(await view.findByDigest(a.digest)).toEqual(a);
      await p.batch((at) => view.setCapabilities(at, b.keyId, ['browser']));
      await p.batch((at) => view.setCapabilities(at, a.keyId, []));
      expect((await view.findByDigest(a.digest))?.capabilities).toEqual([]);
      expect((await view.findByDigest(b.digest))?.capabilities).toEqual(['browser']);
      await revoke(b.keyId);
      await p.batch((at) => view.setCapabilities(at, b.keyId, ['browser']));
      await p.batch((at) => view.setCapabilities(at, 'key-unknown', ['browser']));
      expect(await ids()).toEqual([a.keyId]);
      // Created again, a key has the capabilities of its new creation, not the old ones.
      await add(b);
      expect((await view.findByDigest(b.digest))?.capabilities).toEqual([]);
    });

    it('applying an event again changes nothing: a revoked key stays revoked', async () => {
      const a = key('1'.repeat(32));
      const b = key('2'.repeat(32));
      const applied = await p.batch(
        (at) => view.add(at, a),
        (at) => view.add(at, b),
        (at) => view.revoke(at, a.keyId),
        (at) => view.add(at, { ...b, label: 'second' }),
        (at) => view.setCapabilities(at, b.keyId, ['browser']),
      );
      const check = async () => {
        expect(await view.findByDigest(a.digest)).toBeNull();
        expect(await view.findByDigest(b.digest)).toEqual({ ...b, label: 'second', capabilities: ['browser'] });
        expect(await view.list()).toEqual([{ ...b, label: 'second', capabilities: ['browser'] }]);
      };
      await check();
      for (let i = 0; i < applied.length; i++) {
        await p.replay(applied.slice(i));
        await check();
      }
    });
  });
}
