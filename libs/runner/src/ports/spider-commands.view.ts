import { LogPosition } from '@crawlhub/eventlog';
import { RegisteredSpider } from '../domain/spider-command';

export const SPIDER_COMMANDS_VIEW = Symbol('SPIDER_COMMANDS_VIEW');

/**
 * The registered spider commands of every project. The write side is called only by the
 * projection, with the log position of the event being applied; writing the same event
 * again changes nothing, and an older event never undoes a newer one.
 */
export interface SpiderCommandsView {
  /** Registers or replaces spiders of one project. */
  register(at: LogPosition, spiders: RegisteredSpider[]): Promise<void>;
  unregister(at: LogPosition, project: number, spiders: string[]): Promise<void>;

  /** A project's registered spiders, by name. */
  list(project: number): Promise<RegisteredSpider[]>;
  get(project: number, spider: string): Promise<RegisteredSpider | null>;
  /** Every project with at least one registered spider, ascending. */
  projects(): Promise<number[]>;
}
