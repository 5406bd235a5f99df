/**
 * What a spider name may be, wherever one comes in (jobq push, run.json, schedules,
 * `ids/<p>/spider/<name>?create=1`, the runner's registry): Scrapy's convention for
 * spider names (the `name` attribute, also the `scrapy crawl <name>` argument), letters,
 * digits, `_`, `-` and `.`, not starting with `-` or `.` (so never an option nor a
 * relative path), at most MAX_SPIDER_NAME characters. Names are shown in paths, command
 * lines and file names: no `/`, no spaces, no control characters.
 */
export const MAX_SPIDER_NAME = 256;
const SPIDER_NAME = new RegExp(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,${MAX_SPIDER_NAME - 1}}$`);

/** Why `name` is not a spider name, or null. */
export function spiderNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name === '') return 'a spider name is required';
  if (SPIDER_NAME.test(name)) return null;
  const shown = name.length > 60 ? `${JSON.stringify(name.slice(0, 60))}...` : JSON.stringify(name);
  return `Invalid spider name ${shown}: 1 to ${MAX_SPIDER_NAME} letters, digits, "_", "-" or ".", not starting with "-" or "."`;
}
