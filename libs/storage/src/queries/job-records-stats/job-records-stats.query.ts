import { JobKey } from '@crawlhub/contracts';
import { RecordKind } from '../../domain/record-kinds';

/** GET items|logs|requests/<job>/stats. `all` keeps hidden (underscore) fields. */
export class JobRecordsStatsQuery {
  constructor(readonly kind: RecordKind, readonly job: JobKey, readonly all: boolean) {}
}
