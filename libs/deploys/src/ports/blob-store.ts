export const BLOB_STORE = Symbol('BLOB_STORE');

/** A stored blob: its SHA-256 (lowercase hex) names it. */
export interface BlobRef {
  sha256: string;
  size: number;
}

/**
 * Content-addressed bytes (the eggs and requirements of deploys): stored once however
 * often they are put, read back by their SHA-256 by any process that shares the store (a
 * runner on another machine gets the same bytes). A put is whole or invisible: a writer
 * that dies half-way leaves nothing a reader would see.
 */
export interface BlobStore {
  /** Stores the bytes (a no-op when they are stored already) and names them. */
  put(bytes: Buffer): Promise<BlobRef>;
  /** The bytes, or null when no blob has that name. */
  get(sha256: string): Promise<Buffer | null>;
  has(sha256: string): Promise<boolean>;
  /** Forgets the blob (nothing when there is none). */
  delete(sha256: string): Promise<void>;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;
