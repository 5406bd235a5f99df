import { EventStamps, ManualClock, systemClock, systemIds } from '@crawlhub/contracts';

/**
 * Stamps for the events a test writes into a log itself (`createEvent` takes its stamps:
 * docs/DESIGN.md, "Time and ids"). The system clock and ids, when their time and ids do not matter.
 */
export const systemStamps: EventStamps = { clock: systemClock, ids: systemIds };

/** Stamps at the time `at` (system ids): for an event a test writes as of a time of its choosing. */
export function stampsAt(at: number): EventStamps {
  return { clock: new ManualClock(at), ids: systemIds };
}
