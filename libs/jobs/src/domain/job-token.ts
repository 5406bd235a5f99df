import { signJwt, verifiedJwtPayload } from '@crawlhub/access';

/**
 * Job tokens: a JWT (HS256, JOB_TOKEN_SECRET) whose payload is `{"aud": "job:<key>",
 * "run": <n>}`. The original's payload is `{"aud": "job:<key>"}` (compat-notes §1.4); `run`
 * names the job's run (JobDoc.run: where the request that made the job `running` sits in the
 * project's stream), so a token is honoured only while that very run goes on and dies with
 * it. A pure function of the job and the secret: replays and several API processes agree.
 */
export interface JobRun {
  key: string;
  run: number;
}

export function jobToken(job: JobRun, secret: string): Promise<string> {
  return signJwt({ aud: `job:${job.key}`, run: job.run }, secret);
}

/** The job run a token was issued for, or null when it is not one of ours (`nowMs`: the process's CLOCK; a job token has no `exp`, a foreign one may). */
export async function jobRunOfToken(token: string, secret: string, nowMs: number): Promise<JobRun | null> {
  const payload = await verifiedJwtPayload(token, secret, nowMs);
  if (payload === null) return null;
  const { aud, run } = payload;
  if (typeof aud !== 'string' || !aud.startsWith('job:') || !Number.isSafeInteger(run)) return null;
  return { key: aud.slice(4), run: run as number };
}

/** The token of a running job's current run; null when the job is not running (or ran before runs had ids). */
export async function tokenOfRun(job: { key: string; state: string; run?: number }, secret: string): Promise<string | null> {
  return job.state === 'running' && job.run !== undefined ? jobToken({ key: job.key, run: job.run }, secret) : null;
}
