import Module from 'node:module';
import { crc32c } from '@node-rs/crc32';

/**
 * kafkajs checksums every record batch it produces with CRC-32C computed in JavaScript, a
 * byte at a time: 2.8 ms for one 450 KB storage event here, the largest single cost of an
 * append in the platform's profile (kafkajs 2.2.4, its final release, takes no codec for it).
 * @node-rs/crc32 computes the same checksum with the CPU's CRC32C instruction (0.14 ms).
 *
 * kafkajs loads its checksum module lazily (with the first produce or fetch), through
 * Node's module cache: an entry placed there first is what it gets. Jest keeps a module
 * registry of its own and ignores that cache, so under Jest kafkajs keeps its own
 * implementation (the same checksum, slower); the built platform, which every
 * end-to-end suite and the bench start, uses this one.
 */
const KAFKAJS_CRC32C = 'kafkajs/src/protocol/recordBatch/crc32C/index.js';

/** CRC-32C as kafkajs' module answers it: an unsigned 32-bit number. */
export function kafkaCrc32c(buffer: Buffer): number {
  return crc32c(buffer) >>> 0;
}

/**
 * Hands kafkajs the native checksum before it loads its own; answers whether kafkajs will
 * use it (false when its module was loaded already, or under a module system that
 * bypasses Node's cache).
 */
export function useNativeCrc32c(): boolean {
  const path = require.resolve(KAFKAJS_CRC32C);
  if (!require.cache[path]) {
    const entry = new Module(path);
    entry.filename = path;
    entry.exports = kafkaCrc32c;
    entry.loaded = true;
    require.cache[path] = entry;
  }
  return require(KAFKAJS_CRC32C) === kafkaCrc32c;
}
