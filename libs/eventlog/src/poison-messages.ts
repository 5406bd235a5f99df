import { Logger } from '@nestjs/common';
import type { ConsumedBatch, ConsumeOptions, LoggedEvent, PoisonPolicy } from './event-log.port';

/** A message could not be settled (its error result or record could not be written): it stays uncommitted and comes back. */
export class UnsettledMessageError extends Error {
  constructor(message: LoggedEvent, override readonly cause: unknown) {
    super(`${describe(message)} could not be settled: ${errorText(cause)}`);
    this.name = 'UnsettledMessageError';
  }
}

const DEFAULT_ATTEMPTS = 3;
/** Pause before the second try of a message on its own; doubled for each further one. */
const FIRST_RETRY_MS = 100;

const logger = new Logger('PoisonMessages');
const settledByGroup = new Map<string, number>();

/** Poison messages settled in this process, per consumer group (for operators and tests). */
export function poisonMessagesSettled(groupId: string): number {
  return settledByGroup.get(groupId) ?? 0;
}

/**
 * Handles one message: up to `attempts` times, with a short growing pause between
 * tries. A message that still fails is poison: logged once with its context, counted,
 * and settled by the policy. Throws only for failures of the platform (transient ones, or
 * an UnsettledMessageError), never for the message's own.
 */
export async function handleAlone(groupId: string, message: LoggedEvent, handle: () => Promise<void>, policy: PoisonPolicy = {}): Promise<void> {
  const attempts = Math.max(1, policy.attempts ?? DEFAULT_ATTEMPTS);
  for (let attempt = 1; ; attempt++) {
    try {
      return await handle();
    } catch (error) {
      if (isPlatformFailure(error, policy)) throw error;
      if (attempt < attempts) {
        await new Promise((r) => setTimeout(r, FIRST_RETRY_MS * 2 ** (attempt - 1)));
        continue;
      }
      try {
        await policy.settle?.(message, error);
      } catch (settleError) {
        throw new UnsettledMessageError(message, settleError);
      }
      const count = (settledByGroup.get(groupId) ?? 0) + 1;
      settledByGroup.set(groupId, count);
      logger.error(
        `group ${groupId}: ${describe(message)} failed ${attempts} times and was settled as failed (poison message ${count} of this group in this process): ${errorText(error)}`,
        error instanceof Error ? error.stack : undefined,
      );
      return;
    }
  }
}

/**
 * The batch handler the adapters run in place of `options.handler`: a batch is handled
 * whole; if that fails with the message's own failure, its messages are handled one by
 * one, in order, each through `handleAlone`, so a poison message is settled and the
 * others of its batch go on. Events the handler had already applied are given again:
 * handlers are idempotent (at-least-once delivery).
 */
export function isolatePoisonMessages(options: ConsumeOptions): (batch: ConsumedBatch) => Promise<void> {
  const policy = options.poison ?? {};
  return async (batch) => {
    try {
      return await options.handler(batch);
    } catch (error) {
      if (isPlatformFailure(error, policy)) throw error;
    }
    for (const message of batch.events) {
      await handleAlone(options.groupId, message, () => options.handler({ topic: batch.topic, partition: batch.partition, events: [message] }), policy);
    }
  };
}

function isPlatformFailure(error: unknown, policy: PoisonPolicy): boolean {
  return error instanceof UnsettledMessageError || policy.isTransient?.(error) === true;
}

function describe(m: LoggedEvent): string {
  return `${m.topic}/${m.partition}@${m.offset} (${m.event.type} ${m.event.id}, key ${JSON.stringify(m.event.key)})`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
