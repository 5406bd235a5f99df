import { z } from 'zod';
import { Actor } from '@crawlhub/contracts';
import { checked, spiderName } from '../shared/command-input';

/** Lists of tags to add or remove: [] when absent. */
const tagList = z.unknown().optional().transform((value, ctx): string[] => {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((t) => typeof t === 'string')) return value;
  ctx.addIssue({ code: 'custom', message: '"add" and "remove" must be lists of strings' });
  return z.NEVER;
});

/** Give a spider name its id (the JobQ `ids/<p>/spider/<name>?create=1`, a deploy's spiders). */
const CREATE_SPIDER = z.object({ create: spiderName });

/** Change a spider's tags (the v2 spider API). */
const TAG_SPIDER = z
  .object({ id: z.number().int().nonnegative(), add: tagList, remove: tagList })
  .refine((t) => t.add.length > 0 || t.remove.length > 0, 'At least one of "add" or "remove" arguments must not be empty');

type SpiderChange = z.output<typeof CREATE_SPIDER> | z.output<typeof TAG_SPIDER>;

/** Ensure a spider has an id (`create`: its name), or change the tags of a spider (`id`). */
export class ChangeSpiderCommand {
  readonly change: SpiderChange;

  constructor(
    readonly project: number,
    change: z.input<typeof CREATE_SPIDER> | z.input<typeof TAG_SPIDER>,
    readonly by: string,
    readonly actor: Actor,
  ) {
    this.change = 'create' in change ? checked(CREATE_SPIDER, change) : checked(TAG_SPIDER, change);
  }
}
