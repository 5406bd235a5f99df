import { z } from 'zod';
import { defineTopic, PROJECT_ID } from '../../topic-contract';

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
const DEPLOY_BLOB = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
  /** The file name the client sent (for the eggs list); informational. */
  filename: z.string(),
});
export type DeployBlob = z.infer<typeof DEPLOY_BLOB>;
/** Names the deploy in the events that follow (a UUID); its `deploy_id` is decided when applied. */
const DEPLOY_REQUEST = z.string().min(1);

export const DEPLOY_REQUESTED = 'deploy.requested';
const DEPLOY_REQUESTED_DATA = z.object({
  project: PROJECT_ID,
  request: DEPLOY_REQUEST,
  version: z.string().min(1),
  /** The stack as asked (`scrapy:2.11`), resolved to a known one before the event is made. */
  stack: z.string(),
  egg: DEPLOY_BLOB,
  eggs: z.array(DEPLOY_BLOB),
  requirements: DEPLOY_BLOB.nullable(),
});
export type DeployRequested = z.infer<typeof DEPLOY_REQUESTED_DATA>;

export const DEPLOY_LOG = 'deploy.log';
const DEPLOY_LOG_DATA = z.object({ project: PROJECT_ID, request: DEPLOY_REQUEST, lines: z.array(z.string()) });
export type DeployLog = z.infer<typeof DEPLOY_LOG_DATA>;

export const DEPLOY_BUILT = 'deploy.built';
const DEPLOY_BUILT_DATA = z.object({
  project: PROJECT_ID,
  request: DEPLOY_REQUEST,
  /** Sorted spider names, as `shub-image-info` listed them (at least one). */
  spiders: z.array(z.string()).min(1),
  /** The Scrapy settings module named by the egg's `scrapy.settings` entry point. */
  settingsModule: z.string(),
  /** The runner that built it. */
  builder: z.string(),
});
export type DeployBuilt = z.infer<typeof DEPLOY_BUILT_DATA>;

export const DEPLOY_FAILED = 'deploy.failed';
const DEPLOY_FAILED_DATA = z.object({
  project: PROJECT_ID,
  request: DEPLOY_REQUEST,
  /** One line: why (a requirement that does not install, a project that does not import, no spiders). */
  reason: z.string(),
  /** The end of the build log (the traceback of an import error among it). */
  logTail: z.array(z.string()),
  builder: z.string(),
});
export type DeployFailed = z.infer<typeof DEPLOY_FAILED_DATA>;

export const DEPLOY_VERSION_DELETED = 'deploy.version-deleted';
const DEPLOY_VERSION_DELETED_DATA = z.object({ project: PROJECT_ID, version: z.string().min(1) });
export type DeployVersionDeleted = z.infer<typeof DEPLOY_VERSION_DELETED_DATA>;

export const DEPLOYS_CONTRACT = defineTopic(
  [DEPLOYS_TOPIC],
  {
    [DEPLOY_REQUESTED]: DEPLOY_REQUESTED_DATA,
    [DEPLOY_LOG]: DEPLOY_LOG_DATA,
    [DEPLOY_BUILT]: DEPLOY_BUILT_DATA,
    [DEPLOY_FAILED]: DEPLOY_FAILED_DATA,
    [DEPLOY_VERSION_DELETED]: DEPLOY_VERSION_DELETED_DATA,
  },
  (_type, d) => String(d.project),
);
export const DEPLOY_EVENT_TYPES = Object.keys(DEPLOYS_CONTRACT.events);
