/**
 * Result formats of the storage API (`format=` / `Accept`): jl (default), json, xml,
 * csv, text, msgpack. Pure code: no NestJS, no HTTP framework.
 *
 *   const { format, csv } = negotiateFormat(req.query, req.headers.accept); // may throw FormatError
 *   const enc = createEncoder(format, csv);
 *   reply.type(enc.contentType).send(Readable.from(encodeRecords(jsonTexts, enc)));
 */
export type { ResultFormat, CsvOptions, RecordEncoder } from './types';
export { FormatError, CSV_DEFAULTS, RESULT_FORMATS } from './types';
export { negotiateFormat, parseCsvOptions } from './negotiate';
export { createEncoder, CONTENT_TYPES, textLine } from './encoders';
export { encodeRecords, CHUNK_BYTES, JsonLinesPage } from './encode-records';
export type { RecordOrPage } from './encode-records';
