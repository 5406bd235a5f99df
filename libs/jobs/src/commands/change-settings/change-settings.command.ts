import { randomUUID } from 'node:crypto';
import { Actor } from '@crawlhub/contracts';
import { checked, objectField } from '../shared/command-input';

/** Merge fields into the project's settings (compat-notes §8), or remove one (`remove`). */
export class ChangeSettingsCommand {
  readonly set: Record<string, unknown>;

  constructor(readonly project: number, set: unknown, readonly remove: string | null, readonly by: string, readonly actor: Actor, readonly requestId: string = randomUUID()) {
    this.set = checked(objectField('settings must be a JSON object'), set);
  }
}
