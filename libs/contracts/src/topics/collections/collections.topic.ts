/**
 * Topic `collections`: the key-value collections of the storage API. Key: the project id,
 * so every change to a project's collections (record writes and deletes, whole-collection
 * delete and rename) is ordered in one partition.
 *
 * Records travel as the event's `lines` attachment, one record per line, packed as the
 * compact JSON array `[<key>,<record without _key>]` (see `packCollectionLine` in
 * libs/collections). A body that fits in one event is `collection.records-written`; a
 * larger one is staged in `collection.chunk-staged` events and made visible at once by
 * `collection.upload-committed` (or dropped by `collection.upload-aborted`), as job data.
 */
export const COLLECTIONS_TOPIC = 'collections';

/** s: store, cs: cached store, vs: versioned store, vcs: versioned cached store. A type's index is its stored id. */
export const COLLECTION_TYPES = ['s', 'cs', 'vs', 'vcs'] as const;
export type CollectionType = (typeof COLLECTION_TYPES)[number];

export interface CollectionRef {
  project: number;
  type: CollectionType;
  name: string;
}

/** Records (in `lines`) written to one collection; `_ts` of each is the event's `occurredAt`. */
export const COLLECTION_RECORDS_WRITTEN = 'collection.records-written';
export type CollectionRecordsWritten = CollectionRef;

export const COLLECTION_CHUNK_STAGED = 'collection.chunk-staged';
export interface CollectionChunkStaged extends CollectionRef {
  upload: string;
  seq: number;
}

/** The staged chunks of `upload`, in `seq` order, become visible; `_ts` is this event's `occurredAt`. */
export const COLLECTION_UPLOAD_COMMITTED = 'collection.upload-committed';
export interface CollectionUploadCommitted extends CollectionRef {
  upload: string;
  chunks: number;
}

export const COLLECTION_UPLOAD_ABORTED = 'collection.upload-aborted';
export interface CollectionUploadAborted {
  project: number;
  upload: string;
}

/** The records with these keys (in `lines`, one JSON string each) removed, older versions included. */
export const COLLECTION_RECORDS_DELETED = 'collection.records-deleted';
export type CollectionRecordsDeleted = CollectionRef;

/** Every record of every type of the collection `name` removed. */
export const COLLECTION_DELETED = 'collection.deleted';
export interface CollectionDeleted {
  project: number;
  name: string;
}

/** Every record of every type of `name` moved to `newName` (same type, same key, same `_ts`). */
export const COLLECTION_RENAMED = 'collection.renamed';
export interface CollectionRenamed {
  project: number;
  name: string;
  newName: string;
}
