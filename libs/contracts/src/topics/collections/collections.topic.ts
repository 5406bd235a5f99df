import { z } from 'zod';
import { defineTopic, PROJECT_ID } from '../../topic-contract';

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

const COLLECTION_NAME = z.string().min(1);
const UPLOAD_ID = z.string().min(1);
const COLLECTION_REF = z.object({ project: PROJECT_ID, type: z.enum(COLLECTION_TYPES), name: COLLECTION_NAME });
export type CollectionRef = z.infer<typeof COLLECTION_REF>;

/** Records (in `lines`) written to one collection; `_ts` of each is the event's `occurredAt`. */
export const COLLECTION_RECORDS_WRITTEN = 'collection.records-written';
export type CollectionRecordsWritten = CollectionRef;

export const COLLECTION_CHUNK_STAGED = 'collection.chunk-staged';
const COLLECTION_CHUNK_STAGED_DATA = COLLECTION_REF.extend({ upload: UPLOAD_ID, seq: z.number().int().nonnegative() });
export type CollectionChunkStaged = z.infer<typeof COLLECTION_CHUNK_STAGED_DATA>;

/** The staged chunks of `upload`, in `seq` order, become visible; `_ts` is this event's `occurredAt`. */
export const COLLECTION_UPLOAD_COMMITTED = 'collection.upload-committed';
const COLLECTION_UPLOAD_COMMITTED_DATA = COLLECTION_REF.extend({ upload: UPLOAD_ID, chunks: z.number().int().nonnegative() });
export type CollectionUploadCommitted = z.infer<typeof COLLECTION_UPLOAD_COMMITTED_DATA>;

export const COLLECTION_UPLOAD_ABORTED = 'collection.upload-aborted';
const COLLECTION_UPLOAD_ABORTED_DATA = z.object({ project: PROJECT_ID, upload: UPLOAD_ID });
export type CollectionUploadAborted = z.infer<typeof COLLECTION_UPLOAD_ABORTED_DATA>;

/** The records with these keys (in `lines`, one JSON string each) removed, older versions included. */
export const COLLECTION_RECORDS_DELETED = 'collection.records-deleted';
export type CollectionRecordsDeleted = CollectionRef;

/** Every record of every type of the collection `name` removed. */
export const COLLECTION_DELETED = 'collection.deleted';
const COLLECTION_DELETED_DATA = z.object({ project: PROJECT_ID, name: COLLECTION_NAME });
export type CollectionDeleted = z.infer<typeof COLLECTION_DELETED_DATA>;

/** Every record of every type of `name` moved to `newName` (same type, same key, same `_ts`). */
export const COLLECTION_RENAMED = 'collection.renamed';
const COLLECTION_RENAMED_DATA = z.object({ project: PROJECT_ID, name: COLLECTION_NAME, newName: COLLECTION_NAME });
export type CollectionRenamed = z.infer<typeof COLLECTION_RENAMED_DATA>;

export const COLLECTIONS_CONTRACT = defineTopic(
  [COLLECTIONS_TOPIC],
  {
    [COLLECTION_RECORDS_WRITTEN]: COLLECTION_REF,
    [COLLECTION_CHUNK_STAGED]: COLLECTION_CHUNK_STAGED_DATA,
    [COLLECTION_UPLOAD_COMMITTED]: COLLECTION_UPLOAD_COMMITTED_DATA,
    [COLLECTION_UPLOAD_ABORTED]: COLLECTION_UPLOAD_ABORTED_DATA,
    [COLLECTION_RECORDS_DELETED]: COLLECTION_REF,
    [COLLECTION_DELETED]: COLLECTION_DELETED_DATA,
    [COLLECTION_RENAMED]: COLLECTION_RENAMED_DATA,
  },
  (_type, d) => String(d.project),
);
