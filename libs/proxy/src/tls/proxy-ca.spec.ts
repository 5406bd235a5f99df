import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certFileName, ProxyCa } from './proxy-ca';
import { systemClock } from '@crawlhub/contracts';

describe('ProxyCa', () => {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-ca-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a CA once, keeps it, and signs leaves it verifies', async () => {
    const ca = new ProxyCa(dir, systemClock);
    await ca.open();
    const again = new ProxyCa(dir, systemClock);
    await again.open();
    expect(again.certificatePem).toBe(ca.certificatePem);
    const root = new X509Certificate(ca.certificatePem);
    expect(root.ca).toBe(true);
    const leaf = await ca.leaf('site.test');
    const x = new X509Certificate(leaf.cert);
    expect(x.verify(root.publicKey)).toBe(true);
    expect(x.subjectAltName).toBe('DNS:site.test');
    expect(x.checkIssued(root)).toBe(true);
    expect((await again.leaf('site.test')).cert).toBe(leaf.cert);
    expect(new X509Certificate((await ca.leaf('127.0.0.1')).cert).subjectAltName).toBe('IP Address:127.0.0.1');
  }, 30_000);

  it('signs leaves for an ECDSA P-256 key (a tenth of the cost of an RSA handshake signature) with the RSA CA', async () => {
    const ca = new ProxyCa(join(dir, 'ec'), systemClock);
    await ca.open();
    const root = new X509Certificate(ca.certificatePem);
    expect(root.publicKey.asymmetricKeyType).toBe('rsa');
    const leaf = new X509Certificate((await ca.leaf('ec.test')).cert);
    expect(leaf.publicKey.asymmetricKeyType).toBe('ec');
    expect(leaf.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(leaf.checkIssued(root) && leaf.verify(root.publicKey)).toBe(true);
    expect(leaf.checkHost('ec.test')).toBe('ec.test');
    expect(leaf.ca).toBe(false);
    // The certificate is for the key the TLS server is given.
    expect(leaf.checkPrivateKey(createPrivateKey((await ca.leaf('ec.test')).key))).toBe(true);
  }, 30_000);

  it('keeps the CA of an existing install and signs its leaves on disk again for the current key', async () => {
    const installed = join(dir, 'installed');
    const first = new ProxyCa(installed, systemClock);
    await first.open();
    // A leaf an earlier version left on disk, for a key that is not the leaves' current one
    // (here the CA's own RSA pair, valid for years).
    const { certFile, keyFile } = first.files('old.test');
    writeFileSync(certFile, first.certificatePem);
    writeFileSync(keyFile, readFileSync(join(installed, 'keys', 'ca.private.key')));
    const restarted = new ProxyCa(installed, systemClock);
    await restarted.open();
    expect(restarted.certificatePem).toBe(first.certificatePem);
    const leaf = await restarted.leaf('old.test');
    expect(new X509Certificate(leaf.cert).publicKey.asymmetricKeyType).toBe('ec');
    expect(new X509Certificate(leaf.cert).checkPrivateKey(createPrivateKey(leaf.key))).toBe(true);
    expect(readFileSync(certFile, 'utf8')).toBe(leaf.cert);
  }, 30_000);

  it('gives replicas that start together on one empty directory one CA and one leaf key', async () => {
    const shared = join(dir, 'shared');
    const replicas = [new ProxyCa(shared, systemClock), new ProxyCa(shared, systemClock), new ProxyCa(shared, systemClock)];
    await Promise.all(replicas.map((r) => r.open()));
    expect(new Set(replicas.map((r) => r.certificatePem)).size).toBe(1);
    const root = new X509Certificate(replicas[0].certificatePem);
    // A leaf any replica signs is trusted by a client holding the CA any other one serves.
    for (const r of replicas) expect(new X509Certificate((await r.leaf(`${replicas.indexOf(r)}.test`)).cert).verify(root.publicKey)).toBe(true);
    expect(new Set(await Promise.all(replicas.map(async (r) => (await r.leaf('same.test')).key))).size).toBe(1);
  }, 30_000);

  it('names files safely', () => {
    expect(certFileName('../../etc/passwd')).toBe('__.._etc_passwd');
  });
});
