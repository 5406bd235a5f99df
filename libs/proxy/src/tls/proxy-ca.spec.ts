import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
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
