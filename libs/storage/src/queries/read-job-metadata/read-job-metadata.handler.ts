import { Inject, Optional } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JOB_METADATA_VIEW, JobMetadataView } from '../../ports/job-metadata.view';
import { JOB_PLATFORM_METADATA, JobPlatformMetadata } from '../../ports/job-platform-metadata.port';
import { ReadJobMetadataQuery } from './read-job-metadata.query';

@QueryHandler(ReadJobMetadataQuery)
export class ReadJobMetadataHandler implements IQueryHandler<ReadJobMetadataQuery, Record<string, unknown> | null> {
  constructor(
    @Inject(JOB_METADATA_VIEW) private readonly view: JobMetadataView,
    @Optional() @Inject(JOB_PLATFORM_METADATA) private readonly platform: JobPlatformMetadata | null,
  ) {}

  /**
   * One document, as the original keeps: the platform's fields first, then the fields only
   * clients wrote; where both wrote a field, the later write wins (a client's deletion
   * hides the platform's value until the platform changes it again). Null when neither exists.
   */
  async execute(q: ReadJobMetadataQuery): Promise<Record<string, unknown> | null> {
    const [platform, client] = await Promise.all([this.platform?.get(q.job) ?? null, this.view.get(q.job)]);
    if (!platform && !client) return null;
    const out: Record<string, unknown> = {};
    const clientWins = (k: string) => client !== null && k in client.times && client.times[k] > (platform?.times[k] ?? 0);
    for (const [k, v] of Object.entries(platform?.fields ?? {})) {
      if (!clientWins(k)) out[k] = v;
      else if (k in client!.fields) out[k] = client!.fields[k];
    }
    for (const [k, v] of Object.entries(client?.fields ?? {})) if (!(k in out) && !(platform && k in platform.fields)) out[k] = v;
    return out;
  }
}
