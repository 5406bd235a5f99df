import { createHash } from 'node:crypto';
import { BlobStore } from '@crawlhub/deploys';

export interface BlobStoreFixture {
  store: BlobStore;
  /** A second handle on the same storage (another process, another machine). */
  other: BlobStore;
  /** Leaves a write that died half-way, as the adapter's own writer would (a partial temp file, orphan chunks). */
  dieMidPut(bytes: Buffer): Promise<void>;
  close(): Promise<void>;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** What every BlobStore adapter must do (the folder under DATA_DIR, MongoDB GridFS). */
export function blobStoreContract(name: string, harness: () => Promise<BlobStoreFixture>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let f: BlobStoreFixture;
    beforeEach(async () => {
      f = await harness();
    });
    afterEach(async () => {
      await f.close();
    });

    it('names bytes by their SHA-256 and gives them back, to another handle too', async () => {
      const bytes = Buffer.from('PK\u0003\u0004 an egg \u0000\u00ff', 'latin1');
      const ref = await f.store.put(bytes);
      expect(ref).toEqual({ sha256: sha(bytes), size: bytes.length });
      expect(await f.store.has(ref.sha256)).toBe(true);
      expect((await f.store.get(ref.sha256))!.equals(bytes)).toBe(true);
      expect((await f.other.get(ref.sha256))!.equals(bytes)).toBe(true);
    });

    it('keeps large blobs whole (several chunks) and empty ones too', async () => {
      const big = Buffer.alloc(3 * 1024 * 1024 + 17);
      for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 0xff;
      const empty = Buffer.alloc(0);
      const [a, b] = await Promise.all([f.store.put(big), f.store.put(empty)]);
      expect((await f.other.get(a.sha256))!.equals(big)).toBe(true);
      expect((await f.other.get(b.sha256))!.length).toBe(0);
      expect(b.size).toBe(0);
    });

    it('stores the same bytes once, however often and however concurrently they are put', async () => {
      const bytes = Buffer.from('requests==2.32.3\n');
      const refs = await Promise.all([f.store.put(bytes), f.other.put(bytes), f.store.put(bytes)]);
      expect(new Set(refs.map((r) => r.sha256)).size).toBe(1);
      expect((await f.store.get(refs[0].sha256))!.toString()).toBe('requests==2.32.3\n');
      await f.store.delete(refs[0].sha256);
      expect(await f.other.has(refs[0].sha256)).toBe(false);
      expect(await f.other.get(refs[0].sha256)).toBeNull();
    });

    it('answers null for unknown or malformed names, and deleting them is a no-op', async () => {
      expect(await f.store.get(sha(Buffer.from('never stored')))).toBeNull();
      expect(await f.store.has('../../etc/passwd')).toBe(false);
      expect(await f.store.get('../../etc/passwd')).toBeNull();
      await f.store.delete('not-a-hash');
      await f.store.delete(sha(Buffer.from('never stored')));
    });

    it('never shows a put that died half-way, and a later put of those bytes completes', async () => {
      const bytes = Buffer.alloc(600 * 1024, 3);
      await f.dieMidPut(bytes);
      expect(await f.other.has(sha(bytes))).toBe(false);
      expect(await f.other.get(sha(bytes))).toBeNull();
      await f.store.put(bytes);
      expect((await f.other.get(sha(bytes)))!.equals(bytes)).toBe(true);
    });
  });
}
