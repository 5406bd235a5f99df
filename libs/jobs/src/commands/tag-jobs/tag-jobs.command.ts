import { z } from 'zod';
import { Actor } from '@crawlhub/contracts';
import { checked, jobKeyOf, stringList } from '../shared/command-input';

const tagsOf = (project: number) =>
  z
    .object({
      keys: z.array(jobKeyOf(project)),
      /** Every job of this spider, when no job is named. */
      spider: z.string().nullable(),
      add: stringList('add_tag'),
      remove: stringList('remove_tag'),
    })
    .refine((t) => t.keys.length > 0 || t.spider !== null, 'job or spider is required')
    .transform((t) => ({ ...t, spider: t.keys.length ? null : t.spider }));

/** Add and remove tags of jobs (`keys`), or of every job of a `spider` when no job is named. */
export class TagJobsCommand {
  readonly tags: z.output<ReturnType<typeof tagsOf>>;

  constructor(readonly project: number, tags: z.input<ReturnType<typeof tagsOf>>, readonly by: string, readonly actor: Actor) {
    this.tags = checked(tagsOf(project), tags);
  }
}
