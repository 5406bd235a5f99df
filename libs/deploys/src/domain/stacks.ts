/**
 * The stacks a deploy may name (scrapinghub.yml `stack:`), each the pip requirement of
 * its Scrapy. Like the original's `scrapy:2.11` stacks, a stack pins Scrapy's minor
 * version and takes its latest patch release; the rest of an environment is the same for
 * every stack (scrapinghub-entrypoint-scrapy, then the project's requirements and eggs).
 * Kept short: each is a set of packages every runner may have to download.
 */
export const STACKS: Readonly<Record<string, string>> = {
  'scrapy:2.11': 'Scrapy>=2.11,<2.12',
  'scrapy:2.13': 'Scrapy>=2.13,<2.14',
  'scrapy:2.19': 'Scrapy>=2.19,<2.20',
};

/** The stack of a deploy that names none. */
export const DEFAULT_STACK = 'scrapy:2.19';

/** What every environment gets besides its stack's Scrapy: the original platform's entry point. */
export const ENTRYPOINT_REQUIREMENT = 'scrapinghub-entrypoint-scrapy>=0.18.1,<0.19';

export class UnknownStackError extends Error {}

/** The stack a deploy asked for (empty: the default); an unknown one is refused with the known ones. */
export function resolveStack(asked: string | null): string {
  const stack = asked === null || asked.trim() === '' ? DEFAULT_STACK : asked.trim();
  if (!Object.prototype.hasOwnProperty.call(STACKS, stack)) {
    throw new UnknownStackError(`Unknown stack ${JSON.stringify(stack)}: the known stacks are ${Object.keys(STACKS).join(', ')} (default ${DEFAULT_STACK})`);
  }
  return stack;
}
