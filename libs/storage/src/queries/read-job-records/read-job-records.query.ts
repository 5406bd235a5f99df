import { RecordKind } from '../../domain/record-kinds';
import { RecordPosition } from '../../ports/job-records.view';

/** GET items/logs/requests at project, spider, job, record or field level. */
export class ReadJobRecordsQuery {
  constructor(
    readonly kind: RecordKind,
    readonly project: number,
    readonly spider: number | undefined,
    readonly job: number | undefined,
    /** A single record (record level). */
    readonly position: number | undefined,
    /** Values of one field instead of records. */
    readonly field: string | undefined,
    readonly page: { from?: RecordPosition; after?: RecordPosition; count?: number; positions?: number[] },
    readonly meta: string[],
    readonly nodata: boolean,
    /** Raw `filter` parameters (see record-filter.ts). */
    readonly filters: string[] = [],
  ) {}
}
