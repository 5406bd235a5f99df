import 'reflect-metadata';
import { createPrivateKey, createPublicKey, generateKeyPair, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as forge from 'node-forge';
import * as x509 from '@peculiar/x509';
import { Clock } from '@crawlhub/contracts';

const generate = promisify(generateKeyPair);

async function rsaKeys(): Promise<{ publicKey: string; privateKey: string }> {
  // Node's native generator on the thread pool: the event loop keeps serving meanwhile.
  return generate('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs1', format: 'pem' } });
}

/**
 * The leaves' shared key: ECDSA P-256. A client's full handshake with an intercepted host
 * costs the proxy one signature with this key, about a tenth of an RSA 2048 one.
 */
async function ecKey(): Promise<string> {
  return (await generate('ec', { namedCurve: 'P-256', publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } })).privateKey;
}

/** How the CA (RSA, as it always was: persisted CAs of existing installs stay valid) signs leaves. */
const CA_SIGNATURE = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

/** Node's WebCrypto, given to the certificate library explicitly (not every runtime, nor jest's sandbox, sets a global `crypto`). */
const nodeCrypto = webcrypto as unknown as NonNullable<Parameters<typeof x509.X509CertificateGenerator.create>[1]>;

const CA_SUBJECT = [
  { name: 'commonName', value: 'crawlhub proxy CA' },
  { name: 'organizationName', value: 'crawlhub' },
];

function writeAtomic(path: string, data: string, mode = 0o644): void {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, data, { mode });
  renameSync(tmp, path);
}

/**
 * Writes `path` whole unless it exists: false when another process (a proxy replica on the
 * same PROXY_CA_DIR) made it first. A hard link never replaces its target, so of replicas
 * that start together on an empty directory exactly one creates each file.
 */
function createExclusive(path: string, data: string, mode: number): boolean {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, data, { mode });
  try {
    linkSync(tmp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(tmp);
  }
}

/** How long a replica that lost the race for the CA key waits for the winner's certificate. */
const CA_CERT_WAIT_MS = 10_000;

/** A file name for a host (no path tricks). */
export function certFileName(host: string): string {
  return host.toLowerCase().replace(/[^a-z0-9.-]/g, '_').replace(/^\.+/, '_');
}

/** A CA certificate for the key `privateKeyPem`, valid for 10 years. */
function selfSignedCa(privateKeyPem: string, now: number): string {
  const privateKey = forge.pki.privateKeyFromPem(privateKeyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(privateKey.n, privateKey.e);
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(now - 86_400_000);
  cert.validity.notAfter = new Date(now + 10 * 365 * 86_400_000);
  cert.setSubject(CA_SUBJECT);
  cert.setIssuer(CA_SUBJECT);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/**
 * crawlhub's certificate authority for intercepted HTTPS: created on first start under
 * PROXY_CA_DIR (the layout http-mitm-proxy reads: certs/ca.pem, keys/ca.private.key), and
 * the leaf certificates it signs per host, cached in memory and on disk. Every leaf shares
 * one key pair generated at start off the event loop, so a new host costs one signature
 * (a few ms), not a key generation.
 */
export class ProxyCa {
  readonly certsDir: string;
  readonly keysDir: string;
  private caPem = '';
  private caCert: x509.X509Certificate | null = null;
  private caSigningKey: webcrypto.CryptoKey | null = null;
  private leafKeyPem = '';
  private leafPublicDer: Buffer = Buffer.alloc(0);
  private readonly leaves = new Map<string, { cert: string; key: string }>();

  constructor(readonly dir: string, private readonly clock: Clock) {
    this.certsDir = join(dir, 'certs');
    this.keysDir = join(dir, 'keys');
  }

  /** Loads the CA, or creates and persists it; prepares the leaf key. */
  async open(): Promise<void> {
    mkdirSync(this.certsDir, { recursive: true });
    mkdirSync(this.keysDir, { recursive: true, mode: 0o700 });
    const certFile = join(this.certsDir, 'ca.pem');
    const keyFile = join(this.keysDir, 'ca.private.key');
    // The key decides who makes the CA: replicas sharing the directory all end up with the
    // one whose key was created first, and its certificate.
    if (!existsSync(keyFile)) {
      const keys = await rsaKeys();
      if (createExclusive(keyFile, keys.privateKey, 0o600)) {
        writeAtomic(join(this.keysDir, 'ca.public.key'), keys.publicKey);
        createExclusive(certFile, selfSignedCa(keys.privateKey, this.clock.now()), 0o644);
      }
    }
    for (const until = performance.now() + CA_CERT_WAIT_MS; !existsSync(certFile) && performance.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    // Still none: its maker stopped between key and certificate; any replica may finish it.
    if (!existsSync(certFile)) createExclusive(certFile, selfSignedCa(readFileSync(keyFile, 'utf8'), this.clock.now()), 0o644);
    this.caPem = readFileSync(certFile, 'utf8');
    this.caCert = new x509.X509Certificate(this.caPem);
    const caKeyDer = createPrivateKey(readFileSync(keyFile, 'utf8')).export({ type: 'pkcs8', format: 'der' });
    this.caSigningKey = await webcrypto.subtle.importKey('pkcs8', caKeyDer, CA_SIGNATURE, false, ['sign']);
    // An EC key of its own file: the RSA leaf key of earlier versions (leaf.private.key) is
    // no longer used, and their leaves on disk are signed again for this one (see `leaf`).
    const leafKeyFile = join(this.keysDir, 'leaf-ec.private.key');
    if (!existsSync(leafKeyFile)) createExclusive(leafKeyFile, await ecKey(), 0o600);
    this.leafKeyPem = readFileSync(leafKeyFile, 'utf8');
    this.leafPublicDer = createPublicKey(this.leafKeyPem).export({ type: 'spki', format: 'der' });
  }

  /** The CA certificate (PEM), as served at GET /ca.crt. */
  get certificatePem(): string {
    return this.caPem;
  }

  /** Where a host's leaf certificate and key live on disk. */
  files(host: string): { certFile: string; keyFile: string } {
    const name = certFileName(host);
    return { certFile: join(this.certsDir, `${name}.pem`), keyFile: join(this.keysDir, `${name}.key`) };
  }

  /**
   * The leaf certificate of `host`: from memory, from disk (unless near expiry or made for
   * another key than the leaves' current one), else signed now and saved.
   */
  async leaf(host: string): Promise<{ cert: string; key: string }> {
    const cached = this.leaves.get(host);
    if (cached) return cached;
    const { certFile, keyFile } = this.files(host);
    try {
      const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
      if (key === this.leafKeyPem && new Date(new X509Certificate(cert).validTo).getTime() > this.clock.now() + 7 * 86_400_000) {
        this.leaves.set(host, { cert, key });
        return { cert, key };
      }
    } catch {
      // not on disk yet
    }
    const leaf = { cert: await this.sign(host), key: this.leafKeyPem };
    if (this.leaves.size >= 10_000) this.leaves.clear();
    this.leaves.set(host, leaf);
    await Promise.all([writeFile(keyFile, leaf.key, { mode: 0o600 }), writeFile(certFile, leaf.cert)]).catch(() => undefined);
    return leaf;
  }

  private async sign(host: string): Promise<string> {
    const ca = this.caCert!;
    const caKeyId = ca.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: `01${randomBytes(15).toString('hex')}`,
      notBefore: new Date(this.clock.now() - 86_400_000),
      notAfter: new Date(this.clock.now() + 365 * 86_400_000),
      subject: [{ CN: [host.slice(0, 64)] }],
      issuer: ca.subjectName,
      publicKey: this.leafPublicDer,
      signingKey: this.caSigningKey!,
      signingAlgorithm: CA_SIGNATURE,
      extensions: [
        new x509.BasicConstraintsExtension(false),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([isIP(host) ? { type: 'ip', value: host } : { type: 'dns', value: host }]),
        await x509.SubjectKeyIdentifierExtension.create(this.leafPublicDer, false, nodeCrypto),
        caKeyId ? new x509.AuthorityKeyIdentifierExtension(caKeyId) : await x509.AuthorityKeyIdentifierExtension.create(ca.publicKey, false, nodeCrypto),
      ],
    }, nodeCrypto);
    return cert.toString('pem');
  }
}
