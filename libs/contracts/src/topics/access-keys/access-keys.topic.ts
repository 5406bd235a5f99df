import { z } from 'zod';
import { defineTopic, PROJECT_ID } from '../../topic-contract';

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

const KEY_ID = z.string().min(1).max(128);
const CAPABILITIES = z.array(z.enum(KEY_CAPABILITIES));

export const ACCESS_KEY_CREATED = 'access-key.created';
const ACCESS_KEY_CREATED_DATA = z.object({
  keyId: KEY_ID,
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  admin: z.boolean(),
  projects: z.array(PROJECT_ID),
  label: z.string(),
  /** Absent in events written before capabilities existed: none. */
  capabilities: CAPABILITIES.optional(),
});
export type AccessKeyCreated = z.infer<typeof ACCESS_KEY_CREATED_DATA>;

/** The key's capabilities from now on (the whole set, not a change). */
export const ACCESS_KEY_CAPABILITIES_SET = 'access-key.capabilities-set';
const ACCESS_KEY_CAPABILITIES_SET_DATA = z.object({ keyId: KEY_ID, capabilities: CAPABILITIES });
export type AccessKeyCapabilitiesSet = z.infer<typeof ACCESS_KEY_CAPABILITIES_SET_DATA>;

export const ACCESS_KEY_REVOKED = 'access-key.revoked';
const ACCESS_KEY_REVOKED_DATA = z.object({ keyId: KEY_ID });
export type AccessKeyRevoked = z.infer<typeof ACCESS_KEY_REVOKED_DATA>;

export const ACCESS_KEYS_CONTRACT = defineTopic(
  [ACCESS_KEYS_TOPIC],
  { [ACCESS_KEY_CREATED]: ACCESS_KEY_CREATED_DATA, [ACCESS_KEY_CAPABILITIES_SET]: ACCESS_KEY_CAPABILITIES_SET_DATA, [ACCESS_KEY_REVOKED]: ACCESS_KEY_REVOKED_DATA },
  (_type, d) => d.keyId,
);
