import { FormatError } from './formats';

/** RFC 7230 `token` characters: a name made only of these is sent bare, as the original does. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The `Content-Disposition` of a read with `saveas=<name>` (RFC 6266). A client names a
 * file, never a place: the name is cut to what follows its last `/` or `\`, and a name
 * with nothing left (`..`, `a/`) is a 400. A plain token name is sent as the original
 * sends it (`Attachment; filename=items.jl`); any other gets a quoted ISO-8859-1 fallback
 * and the exact name as `filename*=UTF-8''…` (RFC 8187, formerly 5987).
 *
 * Hand-written because it is this small; the `content-disposition` npm package (1.x runs
 * on Node 20, 3.x needs Node 22) builds the same header if more of RFC 6266 is ever needed.
 */
export function attachmentDisposition(saveas: string): string {
  const name = saveas.slice(Math.max(saveas.lastIndexOf('/'), saveas.lastIndexOf('\\')) + 1);
  if (name === '' || name === '.' || name === '..' || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new FormatError(`Invalid saveas: ${JSON.stringify(saveas)} (a file name, without a directory or control characters)`, 400);
  }
  if (TOKEN.test(name)) return `Attachment; filename=${name}`;
  const fallback = name.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?').replace(/[\\"]/g, '\\$&');
  return `Attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(name)}`;
}

/** RFC 8187 `value-chars`: UTF-8, every byte outside `attr-char` percent-encoded. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
