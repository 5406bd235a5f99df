import { randomBytes } from 'node:crypto';

const FIRST = 10n ** 15n;
const SPAN = 9n * FIRST;

/**
 * A new session id: 16 decimal digits (the original's ids are decimal, e.g. "1836172"),
 * from 64 random bits, so an id cannot be guessed from another one.
 */
export function newSessionId(): string {
  return (FIRST + (BigInt(`0x${randomBytes(8).toString('hex')}`) % SPAN)).toString();
}
