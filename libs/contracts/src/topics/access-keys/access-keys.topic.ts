/**
 * Topic `access-keys`: API keys. Key: the key's id. Only a SHA-256 digest of the secret
 * travels in the log, so the audit trail never leaks a usable key.
 */
export const ACCESS_KEYS_TOPIC = 'access-keys';

/**
 * What a key may do beyond its projects' data. `browser`: the fetch API (the original
 * calls it browser execution; a key without it gets 401 there, even without rendering).
 * `extraction`: the extraction API (a key without it gets 403 account-disabled there, the
 * original's answer to an account not enabled for it). `deploy`: `shub deploy` to the key's
 * projects (scrapyd/addversion.json): a deploy puts code on the runners' machines.
 */
export const KEY_CAPABILITIES = ['browser', 'extraction', 'deploy'] as const;
export type KeyCapability = (typeof KEY_CAPABILITIES)[number];

export const ACCESS_KEY_CREATED = 'access-key.created';
export interface AccessKeyCreated {
  keyId: string;
  digest: string;
  admin: boolean;
  projects: number[];
  label: string;
  /** Absent in events written before capabilities existed: none. */
  capabilities?: KeyCapability[];
}

/** The key's capabilities from now on (the whole set, not a change). */
export const ACCESS_KEY_CAPABILITIES_SET = 'access-key.capabilities-set';
export interface AccessKeyCapabilitiesSet {
  keyId: string;
  capabilities: KeyCapability[];
}

export const ACCESS_KEY_REVOKED = 'access-key.revoked';
export interface AccessKeyRevoked {
  keyId: string;
}
