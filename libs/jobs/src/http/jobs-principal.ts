import { Inject, Injectable } from '@nestjs/common';
import { JOB_TOKEN_SECRET } from '@crawlhub/platform';
import { JobDoc } from '../domain/job';
import { tokenOfRun } from '../domain/job-token';

/** Issues the token of a running job's run (see job-token.ts); null for a job that is not running. */
@Injectable()
export class JobTokens {
  constructor(@Inject(JOB_TOKEN_SECRET) private readonly secret: string) {}

  issue(job: JobDoc): Promise<string | null> {
    return tokenOfRun(job, this.secret);
  }
}
