// The BlobStore contract on both adapters: the folder (always) and GridFS (when MONGODB_URI is set).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { FolderBlobStore } from '../../libs/deploys/src/adapters/folder/blob-store.folder';
import { GridFsBlobStore } from '../../libs/deploys/src/adapters/mongodb/blob-store.gridfs';
import { blobStoreContract } from '../contract/blob-store.contract';
import { describeIf, needs } from '../support/skip';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

blobStoreContract('folder', async () => {
  const root = mkdtempSync(join(tmpdir(), 'crawlhub-blobs-'));
  return {
    store: new FolderBlobStore(root),
    other: new FolderBlobStore(root),
    // A writer killed before its rename: a partial temporary file beside where the blob goes.
    dieMidPut: async (bytes) => {
      const dir = join(root, sha(bytes).slice(0, 2));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `.tmp-${randomBytes(8).toString('hex')}`), bytes.subarray(0, bytes.length / 2));
    },
    close: async () => rmSync(root, { recursive: true, force: true }),
  };
});

const uri = process.env.MONGODB_URI ?? '';
describeIf(needs.mongodb)('on MongoDB', () => {
  blobStoreContract('GridFS', async () => {
    const clients = [await MongoClient.connect(uri), await MongoClient.connect(uri)];
    const name = `blobs_contract_${randomBytes(6).toString('hex')}`;
    const [a, b] = clients.map((c) => c.db(name));
    return {
      store: new GridFsBlobStore(a),
      other: new GridFsBlobStore(b),
      // An upload whose process died after some chunks, before GridFS wrote the files document.
      dieMidPut: async (bytes) => {
        await a.collection('blobs.chunks').insertOne({ files_id: new ObjectId(), n: 0, data: bytes.subarray(0, 255 * 1024) });
      },
      close: async () => {
        await a.dropDatabase();
        for (const c of clients) await c.close();
      },
    };
  });
});
