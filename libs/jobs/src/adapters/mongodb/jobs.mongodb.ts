import { Inject, Injectable } from '@nestjs/common';
import { AnyBulkWriteOperation, Collection, Filter } from 'mongodb';
import { JOB_STATES, JobState } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoDecidedViews, MongoViewDatabase } from '@crawlhub/views';
import { JobsDecision, RunnerLiveness } from '../../domain/decide-jobs';
import { JobDoc, runnerOf, SpiderDoc } from '../../domain/job';
import { JobFilter, JobsView } from '../../ports/jobs.view';

/** One job: the fields queries filter and sort on, and the whole JobDoc as JSON text (metadata key order, any key). */
interface JobMongoDoc {
  /** The job key `p/s/n`: unique, and the (project, spider, number) key in one. */
  _id: string;
  project: number;
  spiderId: number;
  number: number;
  state: JobState;
  priority: number;
  units: number;
  order: number;
  ts: number;
  unique: string | null;
  argsKey: string;
  fire: string | null;
  tags: string[];
  /** The runner that claimed it (`_runner`), or null. */
  runner: string | null;
  d: string;
  /** Offset of the event that last wrote it: older or equal events are skipped on re-apply. */
  _o: number;
}

interface SpiderMongoDoc {
  /** `project/id`. */
  _id: string;
  project: number;
  id: number;
  name: string;
  seq: number;
  tags?: string[];
  _o: number;
}

interface SettingsMongoDoc {
  /** The project id. */
  _id: number;
  d: string;
  _o: number;
}

interface ScrapySettingsMongoDoc {
  /** `project/spider`, `project/` for the project's own. */
  _id: string;
  d: string;
  _o: number;
}

interface RunnerMongoDoc {
  /** Offset (in the project's partition) of the last event that showed the runner alive. */
  heardAt?: number;
  /** `project/runner`. */
  _id: string;
  project: number;
  runner: string;
  silentSince: number | null;
  _o: number;
}

interface BotgroupMongoDoc {
  /** The botgroup's name. */
  _id: string;
  maxRunning: number | null;
  _o: number;
}

interface OutcomeDoc {
  /** The request id. */
  _id: string;
  /** The decision as JSON text: written once, never changed. */
  d: string;
  _o: number;
}

const spiderIdOf = (project: number, id: number) => `${project}/${id}`;
const spiderOf = (s: SpiderMongoDoc): SpiderDoc => ({ project: s.project, id: s.id, name: s.name, seq: s.seq, tags: s.tags ?? [] });
const SPIDER_FIELDS = { _id: 0, project: 1, id: 1, name: 1, seq: 1, tags: 1 } as const;

/**
 * The jobs view on MongoDB, without transactions (see MongoProjectionStore): every job
 * and spider document carries the offset of the event that last wrote it (`_o`), and a
 * write that is not newer is skipped. A project's job events all live in one partition
 * of the jobs topic, so their offsets compare. Outcomes are inserted once, so a decision
 * recorded before a crash is the one the projection reuses.
 */
@Injectable()
export class JobsMongo extends MongoDecidedViews implements JobsView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) views: MongoViewDatabase) {
    // The release that decided while projecting kept its decisions in job_outcomes.
    super(views, { marks: 'jobs_decided_through', beforeFacts: 'job_outcomes' });
    this.ready = views.defineIndexes(async (db) => {
      const jobs = db.collection<JobMongoDoc>('jobs');
      await jobs.createIndex({ project: 1, spiderId: 1, number: 1 }, { unique: true, name: 'jobs_number' });
      await jobs.createIndex({ project: 1, state: 1, ts: -1, order: -1 }, { name: 'jobs_listing' });
      await jobs.createIndex({ project: 1, ts: -1, order: -1 }, { name: 'jobs_recent' });
      await jobs.createIndex({ project: 1, state: 1, priority: -1, order: 1 }, { name: 'jobs_queue' });
      await jobs.createIndex({ project: 1, tags: 1 }, { name: 'jobs_tags' });
      // The console's job list filtered by spider or by tag, newest first, without sorting in memory.
      await jobs.createIndex({ project: 1, spiderId: 1, ts: -1, order: -1 }, { name: 'jobs_spider_recent' });
      await jobs.createIndex({ project: 1, tags: 1, ts: -1, order: -1 }, { name: 'jobs_tag_recent' });
      // Tag, spider and state together (the console's combined filters): its page and its total are one index range each.
      await jobs.createIndex({ project: 1, tags: 1, spiderId: 1, state: 1, ts: -1, order: -1 }, { name: 'jobs_tag_spider_state_recent' });
      await jobs.createIndex({ state: 1, runner: 1, project: 1 }, { name: 'jobs_runner' });
      await db.collection<RunnerMongoDoc>('job_runners').createIndex({ project: 1 }, { name: 'job_runners_project' });
      const spiders = db.collection<SpiderMongoDoc>('spiders');
      await spiders.createIndex({ project: 1, name: 1 }, { unique: true, name: 'spiders_name' });
      await spiders.createIndex({ project: 1, id: 1 }, { unique: true, name: 'spiders_id' });
      // job_decisions: keyed by `_id` (the request id) only; jobs_decided_through by the partition.
    });
    this.ready.catch(() => undefined);
  }

  private get jobDocs(): Collection<JobMongoDoc> {
    return this.views.db.collection<JobMongoDoc>('jobs');
  }
  private get spiderDocs(): Collection<SpiderMongoDoc> {
    return this.views.db.collection<SpiderMongoDoc>('spiders');
  }
  private get outcomes(): Collection<OutcomeDoc> {
    return this.views.db.collection<OutcomeDoc>('job_decisions');
  }
  private get runnerDocs(): Collection<RunnerMongoDoc> {
    return this.views.db.collection<RunnerMongoDoc>('job_runners');
  }
  private get botgroupDocs(): Collection<BotgroupMongoDoc> {
    return this.views.db.collection<BotgroupMongoDoc>('botgroups');
  }

  async spiderByName(project: number, name: string): Promise<SpiderDoc | null> {
    await this.ready;
    const s = await this.spiderDocs.findOne({ project, name });
    return s ? spiderOf(s) : null;
  }

  async maxSpiderId(project: number): Promise<number> {
    await this.ready;
    const [top] = await this.spiderDocs.find({ project }, { projection: { id: 1 } }).sort({ id: -1 }).limit(1).toArray();
    return top?.id ?? 0;
  }

  async job(key: string): Promise<JobDoc | null> {
    await this.ready;
    const doc = await this.jobDocs.findOne({ _id: key }, { projection: { d: 1 } });
    return doc ? (JSON.parse(doc.d) as JobDoc) : null;
  }

  async hasActiveJob(project: number, match: { unique?: string; spiderId?: number; argsKey?: string }): Promise<boolean> {
    await this.ready;
    const filter: Filter<JobMongoDoc> = { project, state: { $in: ['pending', 'running'] } };
    if (match.unique !== undefined) filter.unique = match.unique;
    if (match.spiderId !== undefined) filter.spiderId = match.spiderId;
    if (match.argsKey !== undefined) filter.argsKey = match.argsKey;
    return (await this.jobDocs.findOne(filter, { projection: { _id: 1 } })) !== null;
  }

  async lastFire(project: number, schedule: string): Promise<number | null> {
    await this.ready;
    const docs = await this.jobDocs.find({ project, fire: { $gte: `${schedule}@`, $lt: `${schedule}A` } }, { projection: { fire: 1 } }).toArray();
    return docs.length ? Math.max(...docs.map((d) => Number(d.fire!.slice(schedule.length + 1)))) : null;
  }

  async hasFired(project: number, fire: string): Promise<boolean> {
    await this.ready;
    return (await this.jobDocs.findOne({ project, fire }, { projection: { _id: 1 } })) !== null;
  }

  async nextPending(project: number, maxUnits: number | null, spiderIds: number[] | null): Promise<JobDoc | null> {
    await this.ready;
    if (spiderIds && spiderIds.length === 0) return null;
    const filter: Filter<JobMongoDoc> = { project, state: 'pending' };
    if (maxUnits !== null) filter.units = { $lte: maxUnits };
    if (spiderIds) filter.spiderId = { $in: spiderIds };
    return this.first(filter, { priority: -1, order: 1 });
  }

  async jobsOfSpider(project: number, spiderId: number): Promise<JobDoc[]> {
    await this.ready;
    return this.many(this.jobDocs.find({ project, spiderId }, { projection: { d: 1 } }).sort({ number: 1 }).toArray());
  }

  async outcome(requestId: string): Promise<JobsDecision | null> {
    await this.ready;
    const doc = await this.outcomes.findOne({ _id: requestId });
    return doc ? (JSON.parse(doc.d) as JobsDecision) : null;
  }

  async saveOutcome(at: LogPosition, requestId: string, decision: JobsDecision): Promise<void> {
    await this.ready;
    // Insert if absent: the first decision recorded for a request stays.
    await this.outcomes.updateOne({ _id: requestId }, { $setOnInsert: { d: JSON.stringify(decision), _o: at.offset } }, { upsert: true });
  }

  async putSpiders(at: LogPosition, spiders: SpiderDoc[]): Promise<void> {
    await this.ready;
    if (spiders.length === 0) return;
    const o = at.offset;
    const ids = spiders.map((s) => spiderIdOf(s.project, s.id));
    const stored = new Map((await this.spiderDocs.find({ _id: { $in: ids } }, { projection: { _o: 1 } }).toArray()).map((d) => [d._id, d._o]));
    const ops: AnyBulkWriteOperation<SpiderMongoDoc>[] = [];
    for (const s of spiders) {
      const _id = spiderIdOf(s.project, s.id);
      if ((stored.get(_id) ?? -1) >= o) continue;
      const doc: SpiderMongoDoc = { _id, project: s.project, id: s.id, name: s.name, seq: s.seq, tags: s.tags, _o: o };
      ops.push({ replaceOne: { filter: { _id }, replacement: doc, upsert: true } });
    }
    if (ops.length) await this.spiderDocs.bulkWrite(ops, { ordered: true });
  }

  private get settingsDocs() {
    return this.views.db.collection<SettingsMongoDoc>('project_settings');
  }

  async settings(project: number): Promise<Record<string, unknown>> {
    await this.ready;
    const doc = await this.settingsDocs.findOne({ _id: project });
    return doc ? JSON.parse(doc.d) : {};
  }

  async putSettings(at: LogPosition, project: number, settings: Record<string, unknown>): Promise<void> {
    await this.ready;
    await this.settingsDocs
      .updateOne({ _id: project, _o: { $lt: at.offset } }, { $set: { d: JSON.stringify(settings), _o: at.offset } }, { upsert: true })
      .catch((e: { code?: number }) => {
        if (e.code !== 11000) throw e; // a newer event already wrote them
      });
  }

  private get scrapySettingsDocs() {
    return this.views.db.collection<ScrapySettingsMongoDoc>('scrapy_settings');
  }

  async scrapySettings(project: number, spider: string | null): Promise<Record<string, unknown>> {
    await this.ready;
    const doc = await this.scrapySettingsDocs.findOne({ _id: `${project}/${spider ?? ''}` });
    return doc ? JSON.parse(doc.d) : {};
  }

  async putScrapySettings(at: LogPosition, project: number, spider: string | null, settings: Record<string, unknown>): Promise<void> {
    await this.ready;
    await this.scrapySettingsDocs
      .updateOne({ _id: `${project}/${spider ?? ''}`, _o: { $lt: at.offset } }, { $set: { d: JSON.stringify(settings), _o: at.offset } }, { upsert: true })
      .catch(ignoreDuplicateKeys);
  }

  async putJobs(at: LogPosition, jobs: JobDoc[]): Promise<void> {
    await this.ready;
    if (jobs.length === 0) return;
    const o = at.offset;
    const stored = new Map(
      (await this.jobDocs.find({ _id: { $in: jobs.map((j) => j.key) } }, { projection: { _o: 1 } }).toArray()).map((d) => [d._id, d._o]),
    );
    const ops: AnyBulkWriteOperation<JobMongoDoc>[] = [];
    for (const j of jobs) {
      if ((stored.get(j.key) ?? -1) >= o) continue;
      const doc: JobMongoDoc = {
        _id: j.key,
        project: j.project,
        spiderId: j.spiderId,
        number: j.number,
        state: j.state,
        priority: j.priority,
        units: j.units,
        order: j.order,
        ts: j.ts,
        unique: j.unique,
        argsKey: j.argsKey,
        fire: j.fire ?? null,
        tags: [...new Set(j.tags)],
        runner: runnerOf(j),
        d: JSON.stringify(j),
        _o: o,
      };
      ops.push({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } });
    }
    if (ops.length) await this.jobDocs.bulkWrite(ops, { ordered: true });
  }

  async dropJobs(_at: LogPosition, keys: string[]): Promise<void> {
    await this.ready;
    // Deleting again is harmless, and an older put applied again after a crash is undone
    // when this event is applied again after it, in log order.
    if (keys.length) await this.jobDocs.deleteMany({ _id: { $in: keys } });
  }

  async runningJobs(project: number): Promise<JobDoc[]> {
    await this.ready;
    return this.many(this.jobDocs.find({ project, state: 'running' }, { projection: { d: 1 } }).sort({ _id: 1 }).toArray());
  }

  async runnersOf(project: number): Promise<RunnerLiveness[]> {
    await this.ready;
    const docs = await this.runnerDocs.find({ project }).sort({ runner: 1 }).toArray();
    return docs.map((d) => ({ project, runner: d.runner, silentSince: d.silentSince }));
  }

  async putRunners(at: LogPosition, project: number, runners: { put: RunnerLiveness[]; drop: string[] }, heardAt = at.offset): Promise<void> {
    await this.ready;
    const ops: AnyBulkWriteOperation<RunnerMongoDoc>[] = [];
    for (const r of runners.put) {
      const _id = `${project}/${r.runner}`;
      // A newer event already wrote the row, or (a silence) the runner was heard after the
      // check: the filter fails, the upsert meets the row's key, skipped below.
      const silence = r.silentSince !== null;
      const filter = silence ? { _id, _o: { $lt: at.offset }, heardAt: { $not: { $gt: heardAt } } } : { _id, _o: { $lt: at.offset } };
      const update = silence
        ? { $set: { project, runner: r.runner, silentSince: r.silentSince, _o: at.offset } }
        : { $set: { project, runner: r.runner, silentSince: null, _o: at.offset }, $max: { heardAt } };
      ops.push({ updateOne: { filter, update, upsert: true } });
    }
    for (const runner of runners.drop) ops.push({ deleteOne: { filter: { _id: `${project}/${runner}` } } });
    if (ops.length) await this.runnerDocs.bulkWrite(ops, { ordered: false }).catch(ignoreDuplicateKeys);
  }

  async putBotgroup(at: LogPosition, name: string, maxRunning: number | null | undefined): Promise<void> {
    await this.ready;
    if (maxRunning === undefined) {
      await this.botgroupDocs.deleteOne({ _id: name });
      return;
    }
    await this.botgroupDocs.updateOne({ _id: name, _o: { $lt: at.offset } }, { $set: { maxRunning, _o: at.offset } }, { upsert: true }).catch(ignoreDuplicateKeys);
  }

  async botgroups(names: string[]): Promise<{ name: string; maxRunning: number | null }[]> {
    await this.ready;
    if (names.length === 0) return [];
    const docs = await this.botgroupDocs.find({ _id: { $in: names } }).sort({ _id: 1 }).toArray();
    return docs.map((d) => ({ name: d._id, maxRunning: d.maxRunning }));
  }

  async projectsWithRunnerJobs(): Promise<number[]> {
    await this.ready;
    return ((await this.jobDocs.distinct('project', { state: 'running', runner: { $type: 'string' } })) as number[]).sort((a, b) => a - b);
  }

  async list(filter: JobFilter, page: { offset: number; limit: number }): Promise<JobDoc[]> {
    await this.ready;
    // As SQLite's LIMIT: 0 is nothing, a negative limit is none.
    if (page.limit === 0) return [];
    let cursor = this.jobDocs.find(filterOf(filter), { projection: { d: 1 } }).sort({ ts: -1, order: -1 });
    if (page.offset > 0) cursor = cursor.skip(page.offset);
    if (page.limit > 0) cursor = cursor.limit(page.limit);
    return this.many(cursor.toArray());
  }

  async count(filter: JobFilter): Promise<number> {
    await this.ready;
    return this.jobDocs.countDocuments(filterOf(filter));
  }

  async spiders(project: number): Promise<SpiderDoc[]> {
    await this.ready;
    return (await this.spiderDocs.find({ project }, { projection: SPIDER_FIELDS }).sort({ name: 1 }).toArray()).map(spiderOf);
  }

  async spiderById(project: number, id: number): Promise<SpiderDoc | null> {
    await this.ready;
    const s = await this.spiderDocs.findOne({ _id: spiderIdOf(project, id) });
    return s ? spiderOf(s) : null;
  }

  async stateCounts(project?: number): Promise<{ project: number; counts: Record<JobState, number> }[]> {
    await this.ready;
    const rows = await this.jobDocs
      .aggregate<{ _id: { project: number; state: JobState }; n: number }>([
        { $match: project === undefined ? {} : { project } },
        { $group: { _id: { project: '$project', state: '$state' }, n: { $sum: 1 } } },
      ])
      .toArray();
    const byProject = new Map<number, Record<JobState, number>>();
    for (const r of rows) {
      const p = r._id.project;
      const counts = byProject.get(p) ?? (Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>);
      counts[r._id.state] = r.n;
      byProject.set(p, counts);
    }
    return [...byProject].sort(([a], [b]) => a - b).map(([p, counts]) => ({ project: p, counts }));
  }

  private async first(filter: Filter<JobMongoDoc>, sort: Record<string, 1 | -1>): Promise<JobDoc | null> {
    const [doc] = await this.many(this.jobDocs.find(filter, { projection: { d: 1 } }).sort(sort).limit(1).toArray());
    return doc ?? null;
  }

  private async many(docs: Promise<{ d: string }[]>): Promise<JobDoc[]> {
    return (await docs).map((doc) => JSON.parse(doc.d) as JobDoc);
  }
}

/** An upsert guarded by `_o` meets the newer document already stored: nothing to write. */
function ignoreDuplicateKeys(e: { code?: number; writeErrors?: { code?: number }[] }): void {
  const codes = e.writeErrors?.map((w) => w.code) ?? [e.code];
  if (!codes.every((c) => c === 11000)) throw e;
}

/** The same conditions as the SQLite adapter's `whereOf`. */
function filterOf(f: JobFilter): Filter<JobMongoDoc> {
  const and: Filter<JobMongoDoc>[] = [{ project: f.project }];
  if (f.states?.length) and.push({ state: { $in: f.states } });
  if (f.spiderIds) and.push({ spiderId: { $in: f.spiderIds } });
  if (f.keys) and.push({ _id: { $in: f.keys } });
  if (f.startts !== undefined) and.push({ ts: { $gte: f.startts } });
  if (f.endts !== undefined) and.push({ ts: { $lte: f.endts } });
  if (f.hasTags?.length) and.push({ tags: { $in: f.hasTags } });
  if (f.lacksTags?.length) and.push({ tags: { $nin: f.lacksTags } });
  if (f.newerThan) {
    const { ts, order } = f.newerThan;
    and.push({ $or: [{ ts: { $gt: ts } }, { ts, order: { $gt: order } }] });
  }
  return and.length === 1 ? and[0] : { $and: and };
}
