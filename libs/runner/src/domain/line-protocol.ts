import { parseJson } from '@crawlhub/http';

/**
 * The line protocol a job writes to SHUB_FIFO_PATH (sh_scrapy `writer.py`, compat-notes
 * §1.5): one line per message, a three-letter command, a space, a JSON payload.
 *
 *   ITM {item}                                   an item
 *   LOG {"time", "level", "message"}             a log line
 *   REQ {"url", "status", "method", "rs", "duration", "parent", "time", "fp"}
 *   STA {"time", "stats"}                        the crawl stats so far
 *   FIN {"outcome"}                              the close reason
 */
export type FifoMessage =
  | { type: 'item'; value: Record<string, unknown>; json: string }
  | { type: 'log'; value: Record<string, unknown>; json: string }
  | { type: 'request'; value: Record<string, unknown>; json: string }
  | { type: 'stats'; stats: Record<string, unknown> }
  | { type: 'finish'; outcome: string }
  | { type: 'invalid'; reason: string };

const KINDS = { ITM: 'item', LOG: 'log', REQ: 'request' } as const;

/** One line (without its newline); null for a blank line. */
export function parseFifoLine(line: string): FifoMessage | null {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.trim() === '') return null;
  const command = text.slice(0, 3);
  if (text.length < 4 || text[3] !== ' ' || !['ITM', 'LOG', 'REQ', 'STA', 'FIN'].includes(command)) {
    return { type: 'invalid', reason: `unknown command ${JSON.stringify(text.slice(0, 3))} (expected ITM, LOG, REQ, STA or FIN)` };
  }
  const payload = text.slice(4).trim();
  let value: unknown;
  try {
    value = parseJson(payload);
  } catch (e) {
    return { type: 'invalid', reason: `${command} payload is not valid JSON (${(e as Error).message})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { type: 'invalid', reason: `${command} payload must be a JSON object` };
  const obj = value as Record<string, unknown>;
  switch (command) {
    case 'ITM':
    case 'LOG':
    case 'REQ':
      return { type: KINDS[command], value: obj, json: payload };
    case 'STA': {
      const stats = obj.stats;
      if (stats === null || typeof stats !== 'object' || Array.isArray(stats)) return { type: 'invalid', reason: 'STA payload needs a "stats" object' };
      return { type: 'stats', stats: stats as Record<string, unknown> };
    }
    default: {
      const outcome = obj.outcome;
      if (outcome === undefined || outcome === null || outcome === '') return { type: 'invalid', reason: 'FIN payload needs an "outcome"' };
      return { type: 'finish', outcome: typeof outcome === 'string' ? outcome : JSON.stringify(outcome) };
    }
  }
}

/** Why the runner stopped a job itself: a stop request, or the runner shutting down. */
export type StopCause = 'cancelled' | 'shutdown';

/**
 * The close reason a job finishes with: `cancelled` when it was stopped on request; else
 * the outcome it wrote in FIN; else `shutdown` when the runner stopped it on its way out;
 * else `finished` for exit code 0 and `failed` for anything else (a non-zero code, a
 * signal, a command that could not be started).
 */
export function closeReasonOf(r: { stop: StopCause | null; outcome: string | null; exitCode: number | null; started: boolean }): string {
  if (r.stop === 'cancelled') return 'cancelled';
  if (r.outcome !== null) return r.outcome;
  if (r.stop === 'shutdown') return 'shutdown';
  return r.started && r.exitCode === 0 ? 'finished' : 'failed';
}
