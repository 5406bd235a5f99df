import { Inject, Injectable } from '@nestjs/common';
import { JOB_TOKEN_SECRET } from '@crawlhub/platform';
import { jobToken } from '../domain/job-token';

/** Issues the token of a running job (see job-token.ts). */
@Injectable()
export class JobTokens {
  constructor(@Inject(JOB_TOKEN_SECRET) private readonly secret: string) {}

  issue(jobKey: string): string {
    return jobToken(jobKey, this.secret);
  }
}
