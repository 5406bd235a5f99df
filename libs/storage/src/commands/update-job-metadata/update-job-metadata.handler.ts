import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { formatJobKey, JOB_METADATA_FIELD_DELETED, JOB_METADATA_MERGED, JOB_METADATA_TOPIC, JobMetadataFieldDeleted, JobMetadataMerged } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { UpdateJobMetadataCommand } from './update-job-metadata.command';

@CommandHandler(UpdateJobMetadataCommand)
export class UpdateJobMetadataHandler implements ICommandHandler<UpdateJobMetadataCommand, void> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: UpdateJobMetadataCommand): Promise<void> {
    const job = formatJobKey(cmd.job);
    const event =
      'merge' in cmd.change
        ? this.writer.createEvent<JobMetadataMerged>({ type: JOB_METADATA_MERGED, key: job, data: { job, fields: cmd.change.merge }, actor: cmd.actor })
        : this.writer.createEvent<JobMetadataFieldDeleted>({ type: JOB_METADATA_FIELD_DELETED, key: job, data: { job, field: cmd.change.delete }, actor: cmd.actor });
    await this.writer.appendAndWait(JOB_METADATA_TOPIC, [event]);
  }
}
