import { JobsDecision, JobsState, RunnerLiveness } from '../domain/decide-jobs';
import { JobDoc, SpiderDoc } from '../domain/job';

/**
 * What the decider reads while it decides a batch of requests: the jobs views with the
 * documents of the batch's decisions not folded yet laid over them, so a batch's facts go
 * to the log in one append and the decider waits for one fold, not one per request.
 *
 * A lookup by key (a job, a spider, the settings) answers from the laid-over documents:
 * they are whole documents, exactly what the fold will write. A question over many jobs
 * or runners (any active job of a kind, the next pending one, a spider's jobs, a fire,
 * the running jobs, the runners) is not answered from the overlay: the pending facts are
 * appended and folded first (`fold`), and the views answer. Either way every decision
 * reads the fold of every fact before it, as when each fact was folded on its own.
 */
export class BatchState implements JobsState {
  private laid = 0;
  private jobs = new Map<string, JobDoc | null>();
  private spidersByName = new Map<string, SpiderDoc>();
  private spidersById = new Map<string, SpiderDoc>();
  private settingsOf = new Map<number, Record<string, unknown>>();
  private scrapySettingsOf = new Map<string, Record<string, unknown>>();
  private decisions = new Map<string, JobsDecision>();

  /** `fold` appends the pending facts and waits until the views folded them. */
  constructor(private readonly view: JobsState, private readonly fold: () => Promise<void>) {}

  /** Lays the documents of a decision of the project's over the views (its fact is pending). */
  add(project: number, requestId: string, decision: JobsDecision): void {
    this.laid++;
    this.decisions.set(requestId, decision);
    for (const s of decision.effects.spiders) {
      this.spidersByName.set(`${s.project}/${s.name}`, s);
      this.spidersById.set(`${s.project}#${s.id}`, s);
    }
    for (const j of decision.effects.jobs) this.jobs.set(j.key, j);
    for (const key of decision.effects.purge ?? []) this.jobs.set(key, null);
    if (decision.effects.settings) this.settingsOf.set(project, decision.effects.settings);
    const scrapy = decision.effects.scrapySettings;
    if (scrapy) this.scrapySettingsOf.set(scrapyKey(project, scrapy.spider), scrapy.settings);
  }

  /** The pending facts are folded: the views answer everything again. */
  private folded(): void {
    this.laid = 0;
    this.jobs.clear();
    this.spidersByName.clear();
    this.spidersById.clear();
    this.settingsOf.clear();
    this.scrapySettingsOf.clear();
    this.decisions.clear();
  }

  async spiderByName(project: number, name: string): Promise<SpiderDoc | null> {
    return this.spidersByName.get(`${project}/${name}`) ?? this.view.spiderByName(project, name);
  }

  async maxSpiderId(project: number): Promise<number> {
    let max = await this.view.maxSpiderId(project);
    for (const s of this.spidersById.values()) if (s.project === project) max = Math.max(max, s.id);
    return max;
  }

  async job(key: string): Promise<JobDoc | null> {
    return this.jobs.has(key) ? this.jobs.get(key)! : this.view.job(key);
  }

  async spiderById(project: number, id: number): Promise<SpiderDoc | null> {
    return this.spidersById.get(`${project}#${id}`) ?? this.view.spiderById(project, id);
  }

  async settings(project: number): Promise<Record<string, unknown>> {
    return this.settingsOf.get(project) ?? this.view.settings(project);
  }

  async scrapySettings(project: number, spider: string | null): Promise<Record<string, unknown>> {
    return this.scrapySettingsOf.get(scrapyKey(project, spider)) ?? this.view.scrapySettings(project, spider);
  }

  async outcome(requestId: string): Promise<JobsDecision | null> {
    return this.decisions.get(requestId) ?? this.view.outcome(requestId);
  }

  async hasActiveJob(project: number, match: { unique?: string; spiderId?: number; argsKey?: string }): Promise<boolean> {
    await this.foldPending();
    return this.view.hasActiveJob(project, match);
  }

  async nextPending(project: number, maxUnits: number | null, spiderIds: number[] | null): Promise<JobDoc | null> {
    await this.foldPending();
    return this.view.nextPending(project, maxUnits, spiderIds);
  }

  async jobsOfSpider(project: number, spiderId: number): Promise<JobDoc[]> {
    await this.foldPending();
    return this.view.jobsOfSpider(project, spiderId);
  }

  async hasFired(project: number, fire: string): Promise<boolean> {
    await this.foldPending();
    return this.view.hasFired(project, fire);
  }

  async runningJobs(project: number): Promise<JobDoc[]> {
    await this.foldPending();
    return this.view.runningJobs(project);
  }

  async runnersOf(project: number): Promise<RunnerLiveness[]> {
    await this.foldPending();
    return this.view.runnersOf(project);
  }

  private async foldPending(): Promise<void> {
    if (this.laid === 0) return;
    await this.fold();
    this.folded();
  }
}

const scrapyKey = (project: number, spider: string | null) => `${project}/${spider ?? ''}`;
