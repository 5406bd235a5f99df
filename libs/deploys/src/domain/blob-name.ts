import { createHash } from 'node:crypto';
import type { BlobRef } from '../ports/blob-store';

export function blobRefOf(bytes: Buffer): BlobRef {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}
