import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { blobRefOf } from '../../domain/blob-name';
import { BlobRef, BlobStore, SHA256_HEX } from '../../ports/blob-store';

/**
 * Blobs as files under one folder (`DATA_DIR/blobs` on the embedded deployment):
 * `<root>/<first two hex digits>/<sha256>`. A put writes a temporary file in the same
 * folder, syncs it and renames it into place, so a blob file is always whole; a reader
 * never sees a temporary file (its name is not a SHA-256).
 */
export class FolderBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(sha256: string): string {
    return join(this.root, sha256.slice(0, 2), sha256);
  }

  async put(bytes: Buffer): Promise<BlobRef> {
    const ref = blobRefOf(bytes);
    if (await this.has(ref.sha256)) return ref;
    const path = this.pathOf(ref.sha256);
    const dir = join(this.root, ref.sha256.slice(0, 2));
    await mkdir(dir, { recursive: true });
    const temp = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
    const file = await open(temp, 'w', 0o600);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename(temp, path);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
    return ref;
  }

  async get(sha256: string): Promise<Buffer | null> {
    if (!SHA256_HEX.test(sha256)) return null;
    try {
      return await readFile(this.pathOf(sha256));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async has(sha256: string): Promise<boolean> {
    if (!SHA256_HEX.test(sha256)) return false;
    return stat(this.pathOf(sha256)).then(
      () => true,
      () => false,
    );
  }

  async delete(sha256: string): Promise<void> {
    if (SHA256_HEX.test(sha256)) await rm(this.pathOf(sha256), { force: true });
  }
}
