import type { Db, GridFSBucket } from 'mongodb';
import { mongodbDriver } from '@crawlhub/views';
import { blobRefOf } from '../../domain/blob-name';
import { BlobRef, BlobStore, SHA256_HEX } from '../../ports/blob-store';

/**
 * Blobs in MongoDB GridFS (bucket `blobs`, through the driver's GridFSBucket, which also
 * works on the wire-compatible test server). The file name is the SHA-256 and the id a
 * fresh ObjectId: GridFS writes the files document only after every chunk, so a blob is
 * visible only once whole, and two processes putting the same bytes at once each write a
 * complete copy instead of colliding on one id (a reader takes any; a delete removes all).
 * Chunks of an upload that died before its files document are never read.
 */
export class GridFsBlobStore implements BlobStore {
  private readonly bucket: GridFSBucket;

  constructor(db: Db, bucketName = 'blobs') {
    this.bucket = new (mongodbDriver().GridFSBucket)(db, { bucketName, chunkSizeBytes: 255 * 1024 });
  }

  private async idOf(sha256: string) {
    if (!SHA256_HEX.test(sha256)) return null;
    const [file] = await this.bucket.find({ filename: sha256 }, { limit: 1 }).toArray();
    return file?._id ?? null;
  }

  async put(bytes: Buffer): Promise<BlobRef> {
    const ref = blobRefOf(bytes);
    if ((await this.idOf(ref.sha256)) !== null) return ref;
    await new Promise<void>((resolve, reject) => {
      const upload = this.bucket.openUploadStream(ref.sha256, { metadata: { size: ref.size } });
      upload.once('finish', () => resolve()).once('error', reject);
      upload.end(bytes);
    });
    return ref;
  }

  async get(sha256: string): Promise<Buffer | null> {
    const id = await this.idOf(sha256);
    if (id === null) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of this.bucket.openDownloadStream(id)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.idOf(sha256)) !== null;
  }

  async delete(sha256: string): Promise<void> {
    if (!SHA256_HEX.test(sha256)) return;
    for (const file of await this.bucket.find({ filename: sha256 }).toArray()) await this.bucket.delete(file._id);
  }
}
