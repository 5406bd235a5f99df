import { SpiderCommandSpec } from '@crawlhub/contracts';

/** What the runner knows about a claimed job when it starts its process. */
export interface LaunchJob {
  key: string;
  spider: string;
  spiderArgs: Record<string, string>;
  tags: string[];
  jobSettings: Record<string, unknown> | null;
  /** run.json `environment`: passed in SHUB_JOB_DATA's `job_env` only (see below). */
  jobEnv: Record<string, string>;
  spiderType: string;
  units: number;
  priority: number;
}

export interface LaunchContext {
  /** The job token (JWT); SHUB_JOBAUTH is the hex of `<key>:<token>`. */
  token: string;
  fifoPath: string;
  /** Storage API base URL, ending with `/`. */
  storageUrl: string;
  /** Dash API base URL, ending with `/api/`. */
  apiUrl: string;
  /** The runner's own environment variables that every job gets (RUNNER_PASS_ENV). */
  passEnv: Record<string, string>;
}

export interface JobLaunch {
  argv: string[];
  env: Record<string, string>;
}

/** `[-a, k=v, ...]` sorted by name, as sh_scrapy builds `scrapy crawl` arguments. */
export function spiderArgv(args: Record<string, string>): string[] {
  return Object.keys(args)
    .sort()
    .flatMap((k) => ['-a', `${k}=${args[k]}`]);
}

export function jobAuth(key: string, token: string): string {
  return Buffer.from(`${key}:${token}`, 'utf8').toString('hex');
}

/**
 * The argv and environment of a job's process (compat-notes §1.4-1.5): the registered
 * command followed by the spider arguments; the passed-through runner environment, then
 * the registered `env`, then the SHUB_* and SCRAPY_* variables (which always win).
 *
 * SHUB_JOB_DATA is the job message as sh_scrapy reads it. It carries no `job_cmd`: in
 * sh_scrapy a message with `job_cmd` is a script job, and it would then stop running
 * `scrapy crawl <spider>`. The run.json `environment` travels as `job_env` (sh_scrapy
 * applies it to script jobs only) and is not put in the process environment, so a project
 * key cannot set variables such as LD_PRELOAD or NODE_OPTIONS for a registered command.
 */
export function jobLaunch(job: LaunchJob, spider: SpiderCommandSpec, ctx: LaunchContext): JobLaunch {
  const project = job.key.split('/')[0];
  const settings = job.jobSettings ?? {};
  const message = {
    key: job.key,
    spider: job.spider,
    auth: ctx.token,
    spider_args: job.spiderArgs,
    settings,
    tags: job.tags,
    priority: job.priority,
    units: job.units,
    api_url: ctx.apiUrl,
    spider_type: job.spiderType,
    job_env: job.jobEnv,
    job_name: job.spider,
  };
  const env: Record<string, string> = {
    ...ctx.passEnv,
    ...spider.env,
    SHUB_JOBKEY: job.key,
    SHUB_JOBAUTH: jobAuth(job.key, ctx.token),
    SHUB_JOBNAME: job.spider,
    SHUB_JOB_TAGS: job.tags.join(','),
    SHUB_JOB_DATA: JSON.stringify(message),
    SHUB_SETTINGS: JSON.stringify(job.jobSettings ? { job_settings: job.jobSettings } : {}),
    SHUB_FIFO_PATH: ctx.fifoPath,
    SHUB_STORAGE: ctx.storageUrl,
    SHUB_APIURL: ctx.apiUrl,
    SHUB_SPIDER_TYPE: job.spiderType,
    SCRAPY_JOB: job.key,
    SCRAPY_SPIDER: job.spider,
    SCRAPY_PROJECT_ID: project,
  };
  return { argv: [...spider.command, ...spiderArgv(job.spiderArgs)], env };
}

/** Reads the launch fields out of a job's platform metadata (as the jobs view keeps it). */
export function launchJobOf(key: string, meta: Record<string, unknown>): LaunchJob {
  const obj = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
  const strings = (v: unknown) => Object.fromEntries(Object.entries(obj(v) ?? {}).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]));
  return {
    key,
    spider: String(meta.spider ?? ''),
    spiderArgs: strings(meta.spider_args),
    tags: Array.isArray(meta.tags) ? meta.tags.map(String) : [],
    jobSettings: obj(meta.job_settings),
    jobEnv: strings(meta.environment),
    spiderType: typeof meta.spider_type === 'string' ? meta.spider_type : 'manual',
    units: typeof meta.units === 'number' ? meta.units : 1,
    priority: typeof meta.priority === 'number' ? meta.priority : 2,
  };
}
