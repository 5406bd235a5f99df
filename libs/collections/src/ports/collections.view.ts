import { CollectionRef, CollectionType } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { CollectionRecordInput, StoredCollectionRecord } from '../domain/collection-record';

export const COLLECTIONS_VIEW = Symbol('COLLECTIONS_VIEW');

export interface CollectionWrite extends CollectionRef {
  /** In the order written; when a key comes twice, the last one wins. */
  records: CollectionRecordInput[];
  /** `_ts` of every record of the write (the event's time). */
  ts: number;
  /** vs and vcs: versions kept per key, the newest included. */
  keepVersions: number;
}

export interface CollectionCommit extends CollectionRef {
  upload: string;
  ts: number;
  keepVersions: number;
}

/**
 * The records of every collection of every project. Every change of a project's
 * collections comes from the project's partition, in log order (offsets compare), and
 * applying an event again changes nothing. Reads see what is stored: expiry of cached
 * types is the caller's business (compare `_ts` with the clock), so are filters.
 */
export interface CollectionsView {
  write(at: LogPosition, w: CollectionWrite): Promise<void>;
  /** Keeps packed record lines (`[key,record]`) of an upload aside, invisible. */
  stageChunk(at: LogPosition, c: { project: number; upload: string; seq: number; lines: string[] }): Promise<void>;
  /** Writes the staged chunks of the upload, in order, as one write each, then forgets them. */
  commitUpload(at: LogPosition, c: CollectionCommit): Promise<void>;
  abortUpload(at: LogPosition, c: { project: number; upload: string }): Promise<void>;
  /** Removes the records with these keys, and their older versions. */
  deleteRecords(at: LogPosition, ref: CollectionRef, keys: string[]): Promise<void>;
  /** Removes every record of every type named `name`. */
  deleteCollection(at: LogPosition, project: number, name: string): Promise<void>;
  /** Moves every record (and version) of every type named `name` to `newName`; moved records replace same keys. */
  renameCollection(at: LogPosition, project: number, name: string, newName: string): Promise<void>;
  /** May remove records (and versions) of cached types of the project written before `before`. */
  purgeExpired(at: LogPosition, project: number, before: number): Promise<void>;

  /** Records with `low <= key < high` (no end when null), in byte order of the keys. */
  scan(ref: CollectionRef, range: { low: string; high: string | null; limit: number }): Promise<StoredCollectionRecord[]>;
  /** The records of these keys (sorted, unique) that exist, in key order. */
  getMany(ref: CollectionRef, keys: string[]): Promise<StoredCollectionRecord[]>;
  /** The stored versions of a record, newest (the current one) first; [] when there is none. */
  versions(ref: CollectionRef, key: string): Promise<StoredCollectionRecord[]>;
  /** The collections of the project written and not deleted, emptied ones too (as the original lists them): by name (byte order), then type (s, cs, vs, vcs). */
  list(project: number): Promise<{ type: CollectionType; name: string }[]>;
  /** Whether a collection of any type named `name` is listed. */
  exists(project: number, name: string): Promise<boolean>;
}
