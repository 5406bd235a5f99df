import type { KeyCapability } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { AccessKey } from '../domain/access-key';

export const ACCESS_KEYS_VIEW = Symbol('ACCESS_KEYS_VIEW');

export interface AccessKeysView {
  add(at: LogPosition, key: AccessKey): Promise<void>;
  revoke(at: LogPosition, keyId: string): Promise<void>;
  /** Replaces a live key's capabilities (an unknown or revoked key: nothing). */
  setCapabilities(at: LogPosition, keyId: string, capabilities: KeyCapability[]): Promise<void>;
  findByDigest(digest: string): Promise<AccessKey | null>;
  /** A live key by its id (proxy tokens name keys by id). */
  findById(keyId: string): Promise<AccessKey | null>;
  list(): Promise<AccessKey[]>;
}
