/**
 * Topic `access-keys`: API keys. Key: the key's id. Only a SHA-256 digest of the secret
 * travels in the log, so the audit trail never leaks a usable key.
 */
export const ACCESS_KEYS_TOPIC = 'access-keys';

export const ACCESS_KEY_CREATED = 'access-key.created';
export interface AccessKeyCreated {
  keyId: string;
  digest: string;
  admin: boolean;
  projects: number[];
  label: string;
}

export const ACCESS_KEY_REVOKED = 'access-key.revoked';
export interface AccessKeyRevoked {
  keyId: string;
}
