import { Actor, JobKey } from '@crawlhub/contracts';
import { RecordKind } from '../../domain/record-kinds';

/** POST items/logs/requests: store a JSON-lines body at `start` (or appended). */
export class WriteJobRecordsCommand {
  constructor(
    readonly kind: RecordKind,
    readonly job: JobKey,
    readonly start: number | null,
    readonly body: AsyncIterable<Buffer>,
    readonly actor: Actor,
  ) {}
}
