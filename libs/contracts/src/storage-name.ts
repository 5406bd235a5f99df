/**
 * What the name of a collection, a frontier or a slot may be, wherever one comes in (a
 * path segment, `?name=`, `?new_name=`): one rule for every name the storage API keeps,
 * since each is shown in paths, lists and logs. 1 to MAX_STORAGE_NAME_BYTES bytes of
 * UTF-8, no `/` (a path separator), no control characters (U+0000 to U+001F, U+007F), and
 * well-formed Unicode (no lone surrogate: the name has a UTF-8 form and a byte order).
 */
export const MAX_STORAGE_NAME_BYTES = 255;

const CONTROL = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No lone surrogate: the string has a UTF-8 form (and so a byte order). */
export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** Why `name` is not the name of a `what` ("collection", "frontier", "slot"), or null. */
export function storageNameProblem(name: string | null | undefined, what: string): string | null {
  const rule = `1 to ${MAX_STORAGE_NAME_BYTES} bytes, no '/' or control characters`;
  if (name === null || name === undefined || name === '') return `Invalid ${what} name: it must not be empty (${rule})`;
  const shown = name.length > 60 ? `${JSON.stringify(name.slice(0, 60))}...` : JSON.stringify(name);
  if (!isWellFormed(name)) return `Invalid ${what} name ${shown}: not valid Unicode`;
  if (name.includes('/') || CONTROL.test(name) || Buffer.byteLength(name, 'utf8') > MAX_STORAGE_NAME_BYTES) return `Invalid ${what} name ${shown} (${rule})`;
  return null;
}
