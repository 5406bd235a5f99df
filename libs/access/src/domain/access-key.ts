import { createHash, randomBytes } from 'node:crypto';
import type { KeyCapability } from '@crawlhub/contracts';

export interface AccessKey {
  keyId: string;
  digest: string;
  admin: boolean;
  projects: number[];
  label: string;
  capabilities: KeyCapability[];
}

/** Who is calling: resolved from the request's credentials. */
export interface Principal {
  id: string;
  admin: boolean;
  projects: number[];
  /** A job token's principal: it may touch only this job's data (`p/s/j`), while the job runs. */
  job?: string;
  /** The key's capabilities (absent: none; an admin key has them all). */
  capabilities?: readonly KeyCapability[];
}

export function hasCapability(p: Principal, capability: KeyCapability): boolean {
  return p.job === undefined && (p.admin || (p.capabilities ?? []).includes(capability));
}

/** API keys look like the original's: 32 lowercase hex characters. */
export function generateSecret(): string {
  return randomBytes(16).toString('hex');
}

export function digestOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A short, non-secret id derived from the secret: safe for logs and events. */
export function keyIdOf(secret: string): string {
  return `key-${digestOf(secret).slice(0, 12)}`;
}

export function canAccessProject(p: Principal, project: number): boolean {
  return p.job === undefined && (p.admin || p.projects.includes(project));
}

/** Job-level access: a key of the project, or the token of that very job. */
export function canAccessJob(p: Principal, jobKey: string): boolean {
  return p.job === undefined ? canAccessProject(p, Number(jobKey.split('/')[0])) : p.job === jobKey;
}
