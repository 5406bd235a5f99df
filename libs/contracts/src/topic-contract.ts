import { z } from 'zod';

/**
 * What a topic carries: for each event type, the schema of its `data`, and the partition
 * key the event must have (derived from its data), so an event keyed elsewhere (which
 * another partition's single decider would never see in order) is refused too.
 *
 * The schemas are the types: each topic file exports `type X = z.infer<typeof X_DATA>`, so
 * the shape is written once. Events are checked at both ends of the log: the EventWriter
 * refuses to append a malformed event (a bug of the writer, never stored), and every
 * consumer (projector, deciders, workers) skips and reports one it reads, instead of
 * folding or deciding on a cast (a log written by an older or foreign producer).
 */
export interface TopicContract {
  topics: readonly string[];
  events: Readonly<Record<string, z.ZodType>>;
  /** The key an event of this type must have, from its (valid) data. */
  keyOf: (type: string, data: never) => string;
}

export function defineTopic<E extends Record<string, z.ZodType>>(
  topics: readonly string[],
  events: E,
  keyOf: (type: keyof E & string, data: z.infer<E[keyof E]>) => string,
): TopicContract {
  return { topics, events, keyOf: keyOf as TopicContract['keyOf'] };
}

/** Why the event is malformed for its contract, or null when it is good. */
export function eventProblemIn(contract: TopicContract, e: { type: string; key: string; data: unknown }): string | null {
  const schema = contract.events[e.type];
  if (!schema) return `unknown type ${e.type}`;
  const parsed = schema.safeParse(e.data);
  if (!parsed.success) return describeIssues(parsed.error);
  const key = contract.keyOf(e.type, parsed.data as never);
  return e.key === key ? null : `the key ${JSON.stringify(e.key)} is not ${JSON.stringify(key)}`;
}

/** One line naming each field that is wrong: `bad id (expected string); bad deadline (…)`. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `bad ${i.path.join('.')}` : 'bad data') + ` (${i.message})`)
    .join('; ');
}

// Shapes several topics share.

/** A project id as events carry it. */
export const PROJECT_ID = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** ms since the epoch, or a duration in ms. */
export const MILLIS = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** An API key id (`key-…`) or another principal id, as accounted. */
export const USER_ID = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/);
/** A JSON object of any fields. */
export const JSON_OBJECT = z.record(z.string(), z.unknown());
export const HTTP_URL = z.string().regex(/^https?:\/\//i, 'an http(s) URL');
