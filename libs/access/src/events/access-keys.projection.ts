import { Inject, Injectable } from '@nestjs/common';
import { ACCESS_KEY_CAPABILITIES_SET, ACCESS_KEY_CREATED, ACCESS_KEY_REVOKED, ACCESS_KEYS_TOPIC, AccessKeyCapabilitiesSet, AccessKeyCreated, AccessKeyRevoked } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { ACCESS_KEYS_VIEW, AccessKeysView } from '../ports/access-keys.view';

@AsProjection()
@Injectable()
export class AccessKeysProjection implements Projection {
  readonly topics = [ACCESS_KEYS_TOPIC];

  constructor(@Inject(ACCESS_KEYS_VIEW) private readonly view: AccessKeysView) {}

  async apply(e: LoggedEvent): Promise<void> {
    if (e.event.type === ACCESS_KEY_CREATED) {
      const d = e.event.data as AccessKeyCreated;
      return this.view.add(e, { keyId: d.keyId, digest: d.digest, admin: d.admin, projects: d.projects, label: d.label, capabilities: d.capabilities ?? [] });
    }
    if (e.event.type === ACCESS_KEY_REVOKED) return this.view.revoke(e, (e.event.data as AccessKeyRevoked).keyId);
    if (e.event.type === ACCESS_KEY_CAPABILITIES_SET) {
      const d = e.event.data as AccessKeyCapabilitiesSet;
      return this.view.setCapabilities(e, d.keyId, d.capabilities);
    }
  }
}
