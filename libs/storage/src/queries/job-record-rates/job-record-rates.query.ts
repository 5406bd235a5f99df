import { JobKey } from '@crawlhub/contracts';
import { RecordKind } from '../../domain/record-kinds';

/** GET items|logs|requests/<job>/rates: the job's records per time bucket (logs: at `minLevel` or above). */
export class JobRecordRatesQuery {
  constructor(readonly kind: RecordKind, readonly job: JobKey, readonly bucketMs: number, readonly minLevel?: number) {}
}
