export const RUNNABLE_SPIDERS = Symbol('RUNNABLE_SPIDERS');

/** Where a job of a spider would run, as run.json decides it when it schedules. */
export type SpiderRun =
  /** The project's current deployed version has the spider: the job records that version. */
  | { kind: 'deployed'; version: string; deployId: number }
  /** An admin-registered command (not a Scrapy project): no version. */
  | { kind: 'registered' }
  /** The project has a deployed version without this spider, and no command for it: refused at once. */
  | { kind: 'unknown' }
  /** Nothing is deployed nor registered for the project yet: the job waits for one (the registry's behaviour). */
  | { kind: 'undecided' };

/** Bound by the dash app (libs/runner knows the registry and the deploys); absent: every spider is undecided. */
export interface RunnableSpiders {
  resolve(project: number, spider: string): Promise<SpiderRun>;
  /** The project's current deployed version and its spiders (spiders/list.json shows them with it); null: none. */
  current(project: number): Promise<{ version: string; spiders: string[] } | null>;
}
