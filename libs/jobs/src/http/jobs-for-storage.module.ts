import { Clock, CLOCK, JobKey } from '@crawlhub/contracts';
import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { Principal } from '@crawlhub/access';
import { JOB_TOKEN_VERIFIER, JobTokenVerifier } from '@crawlhub/http';
import { JOB_TOKEN_SECRET } from '@crawlhub/platform';
import { JOB_PLATFORM_METADATA, JobPlatformMetadata } from '@crawlhub/storage';
import { jobRunOfToken } from '../domain/job-token';
import { JobsViewsModule } from '../jobs.views.module';
import { JOBS_VIEW, JobsView } from '../ports/jobs.view';

/** Serves the jobs view's metadata to the storage API's GET jobs/<key>. */
@Injectable()
class JobsPlatformMetadata implements JobPlatformMetadata {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}

  async get(job: JobKey): Promise<{ fields: Record<string, unknown>; times: Record<string, number> } | null> {
    const doc = await this.view.job(`${job.project}/${job.spider}/${job.job}`);
    return doc ? { fields: doc.meta, times: doc.metaTimes } : null;
  }
}

/** A job token is honoured while the run it was issued for goes on, and only for that job. */
@Injectable()
class RunningJobTokens implements JobTokenVerifier {
  constructor(
    @Inject(JOBS_VIEW) private readonly view: JobsView,
    @Inject(JOB_TOKEN_SECRET) private readonly secret: string,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async verify(jobKey: string, token: string): Promise<Principal | null> {
    const run = await jobRunOfToken(token, this.secret, this.clock.now());
    if (run === null || run.key !== jobKey) return null;
    const job = await this.view.job(jobKey);
    return job?.state === 'running' && job.run === run.run ? { id: `job:${jobKey}`, admin: false, projects: [], job: jobKey } : null;
  }
}

/** What the jobs context lends the storage API: platform metadata and job-token checks. */
@Global()
@Module({
  imports: [JobsViewsModule],
  providers: [
    { provide: JOB_PLATFORM_METADATA, useClass: JobsPlatformMetadata },
    { provide: JOB_TOKEN_VERIFIER, useClass: RunningJobTokens },
  ],
  exports: [JOB_PLATFORM_METADATA, JOB_TOKEN_VERIFIER],
})
export class JobsForStorageModule {}
