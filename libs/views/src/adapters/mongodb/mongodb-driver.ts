/**
 * The MongoDB driver, loaded on first use rather than when `@crawlhub/views` is imported:
 * a process on the embedded SQLite views (the default, and most roles of a fleet that only
 * talk to the log) then never loads its 130 modules. The adapters import the driver's
 * types only (`import type`, erased at build) and take its classes from here.
 */
export function mongodbDriver(): typeof import('mongodb') {
  return require('mongodb') as typeof import('mongodb');
}
