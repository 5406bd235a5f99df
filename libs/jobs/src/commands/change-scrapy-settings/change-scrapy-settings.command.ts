import { z } from 'zod';
import { Actor } from '@crawlhub/contracts';
import { checked, objectField, spiderName } from '../shared/command-input';

const SCRAPY_SETTINGS = z.object({
  /** The spider whose settings change, by name; null: the project's own. */
  spider: spiderName.nullable(),
  /** Merged key by key into what is there; a null value removes its key. */
  set: z
    .unknown()
    .optional()
    .transform((value, ctx): unknown => {
      if (value !== undefined) return value;
      ctx.addIssue({ code: 'custom', message: 'settings is required (a JSON object; a null value removes its setting)' });
      return z.NEVER;
    })
    .pipe(objectField('settings must be a JSON object'))
    .refine((set) => Object.keys(set).every((name) => name.trim() !== ''), 'settings: a setting name must not be empty'),
});

/** Change the Scrapy settings of a project or of one of its spiders (what jobs scheduled afterwards get under `job_settings`). */
export class ChangeScrapySettingsCommand {
  readonly change: z.output<typeof SCRAPY_SETTINGS>;

  constructor(readonly project: number, change: { spider: string | null; set?: unknown }, readonly by: string, readonly actor: Actor) {
    this.change = checked(SCRAPY_SETTINGS, change);
  }
}
