import { ApiError, parseId } from '@crawlhub/http';
import { RECORD_KINDS, RecordKind } from '../domain/record-kinds';

export function kindOf(segment: string): RecordKind {
  if (!(RECORD_KINDS as readonly string[]).includes(segment)) throw ApiError.notFound();
  return segment as RecordKind;
}

/** A path id: anything but a non-negative integer is a 400 naming the part. */
export function idOf(segment: string | undefined, what: string): number {
  const id = parseId(segment);
  if (id === null) throw ApiError.badRequest(`Invalid ${what} id: ${JSON.stringify(segment ?? '')}`);
  return id;
}
