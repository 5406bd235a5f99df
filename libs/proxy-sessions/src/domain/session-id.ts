import { Ids } from '@crawlhub/contracts';

const FIRST = 10n ** 15n;
const SPAN = 9n * FIRST;

/**
 * A new session id: 16 decimal digits (the original's ids are decimal, e.g. "1836172"),
 * from 64 bits of the process's IDS (random ones: an id cannot be guessed from another one).
 */
export function newSessionId(ids: Ids): string {
  return (FIRST + (BigInt(`0x${ids.hex(8)}`) % SPAN)).toString();
}
