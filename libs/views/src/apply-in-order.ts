import { LoggedEvent } from '@crawlhub/eventlog';

/** Runs tasks one after another: a view store has one writer, whatever its callers do. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  async idle(): Promise<void> {
    await this.tail;
  }
}

/** Applies, in order, the events at or after offset `next`; returns the last offset applied (next - 1 if none). */
export async function applyFrom(events: LoggedEvent[], next: number, apply: (e: LoggedEvent) => Promise<void>): Promise<number> {
  let last = next - 1;
  for (const e of events) {
    if (e.offset < next) continue;
    await apply(e);
    last = e.offset;
  }
  return last;
}
