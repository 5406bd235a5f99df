import { LogPosition } from '@crawlhub/eventlog';
import { DeployDoc } from '../domain/deploy';

export const DEPLOYS_VIEW = Symbol('DEPLOYS_VIEW');

/**
 * Every project's deploys. Written only by the projection, one whole document at a time
 * (applying an event again writes the same document); a project's events share a
 * partition, so the offsets of its documents compare.
 */
export interface DeploysView {
  put(at: LogPosition, doc: DeployDoc): Promise<void>;
  /** Marks every deploy of the version deleted. */
  deleteVersion(at: LogPosition, project: number, version: string): Promise<void>;

  byRequest(project: number, request: string): Promise<DeployDoc | null>;
  get(project: number, deployId: number): Promise<DeployDoc | null>;
  /** The highest deploy id of the project (0: none). */
  lastDeployId(project: number): Promise<number>;
  /** The project's deploys, oldest first. */
  list(project: number): Promise<DeployDoc[]>;
  /** Projects with at least one built, undeleted deploy, ascending. */
  projects(): Promise<number[]>;
}

/** The project's current deploy: its latest built one whose version was not deleted. */
export function currentDeploy(deploys: DeployDoc[]): DeployDoc | null {
  for (let i = deploys.length - 1; i >= 0; i--) if (deploys[i].state === 'ok' && !deploys[i].deleted) return deploys[i];
  return null;
}
