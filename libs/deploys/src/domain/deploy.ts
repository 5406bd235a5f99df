import type { DeployRequested } from '@crawlhub/contracts';

export type DeployState = 'building' | 'ok' | 'failed';

/** One deploy of a project (a `shub deploy`), as the deploys view keeps it: the request, and what became of it. */
export interface DeployDoc extends DeployRequested {
  /** 1, 2, 3... per project, in the order deploys were requested (the jobs' `deploy_id`). */
  deployId: number;
  state: DeployState;
  spiders: string[];
  settingsModule: string | null;
  /** Why it failed (state `failed`). */
  failure: string | null;
  requestedAt: number;
  requestedBy: string;
  builtAt: number | null;
  /** Its version was deleted (scrapyd/delversion.json): no new job runs it. */
  deleted: boolean;
}

/**
 * The original's limit on a deploy request (shub checks it before sending: 50 MB for the
 * whole request, 5 KB of it reserved for headers).
 */
export const MAX_DEPLOY_REQUEST_BYTES = 50 * 1024 * 1024;

/** Versions as shub makes them (`[^\w.-]` removed from a git describe, a setup.py version or a timestamp), plus `+`. */
const VERSION = /^[A-Za-z0-9_.+-]{1,128}$/;

export function versionProblem(version: string | null): string | null {
  if (version === null || version === '') return 'version is required';
  if (!VERSION.test(version)) return `Invalid version ${JSON.stringify(version)}: 1 to 128 letters, digits, _ . + or -`;
  return null;
}
