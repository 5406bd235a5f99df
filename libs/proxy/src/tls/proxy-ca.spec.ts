import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certFileName, ProxyCa } from './proxy-ca';

describe('ProxyCa', () => {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-ca-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a CA once, keeps it, and signs leaves it verifies', async () => {
    const ca = new ProxyCa(dir);
    await ca.open();
    const again = new ProxyCa(dir);
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

  it('names files safely', () => {
    expect(certFileName('../../etc/passwd')).toBe('__.._etc_passwd');
  });
});
