import { Actor } from '@crawlhub/contracts';
import { checked, objectField } from '../shared/command-input';

/** Merge fields into the project's settings (compat-notes §8), or remove one (`remove`). */
export class ChangeSettingsCommand {
  readonly set: Record<string, unknown>;

  constructor(readonly project: number, set: unknown, readonly remove: string | null, readonly by: string, readonly actor: Actor) {
    this.set = checked(objectField('settings must be a JSON object'), set);
  }
}
