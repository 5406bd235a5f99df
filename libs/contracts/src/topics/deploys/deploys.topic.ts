/**
 * Topic `deploys`: the versions of a project's code (`shub deploy`). Key: the project id,
 * so one project's deploys are ordered in one partition.
 *
 * The dash API appends `deploy.requested` once the egg, the extra eggs and the
 * requirements are in the blob store; a runner (consumer group `deploy-builders`) builds
 * the version's environment, lists its spiders and appends `deploy.log` lines while it
 * works, then `deploy.built` or `deploy.failed`. Only a built deploy can run jobs; the
 * latest built, undeleted version of a project is its current version.
 */
export const DEPLOYS_TOPIC = 'deploys';

/** A stored blob (see the blob store): bytes named by their SHA-256. */
export interface DeployBlob {
  sha256: string;
  size: number;
  /** The file name the client sent (for the eggs list); informational. */
  filename: string;
}

export const DEPLOY_REQUESTED = 'deploy.requested';
export interface DeployRequested {
  project: number;
  /** Names the deploy in the events that follow (a UUID); its `deploy_id` is decided when applied. */
  request: string;
  version: string;
  /** The stack as asked (`scrapy:2.11`), resolved to a known one before the event is made. */
  stack: string;
  egg: DeployBlob;
  eggs: DeployBlob[];
  requirements: DeployBlob | null;
}

export const DEPLOY_LOG = 'deploy.log';
export interface DeployLog {
  project: number;
  request: string;
  lines: string[];
}

export const DEPLOY_BUILT = 'deploy.built';
export interface DeployBuilt {
  project: number;
  request: string;
  /** Sorted spider names, as `shub-image-info` listed them (at least one). */
  spiders: string[];
  /** The Scrapy settings module named by the egg's `scrapy.settings` entry point. */
  settingsModule: string;
  /** The runner that built it. */
  builder: string;
}

export const DEPLOY_FAILED = 'deploy.failed';
export interface DeployFailed {
  project: number;
  request: string;
  /** One line: why (a requirement that does not install, a project that does not import, no spiders). */
  reason: string;
  /** The end of the build log (the traceback of an import error among it). */
  logTail: string[];
  builder: string;
}

export const DEPLOY_VERSION_DELETED = 'deploy.version-deleted';
export interface DeployVersionDeleted {
  project: number;
  version: string;
}

export const DEPLOY_EVENT_TYPES = [DEPLOY_REQUESTED, DEPLOY_LOG, DEPLOY_BUILT, DEPLOY_FAILED, DEPLOY_VERSION_DELETED] as const;
