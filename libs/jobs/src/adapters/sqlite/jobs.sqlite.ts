import { Inject, Injectable } from '@nestjs/common';
import { JOB_STATES, JobState } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { JobsDecision, RunnerLiveness } from '../../domain/decide-jobs';
import { JobDoc, SpiderDoc } from '../../domain/job';
import { JobFilter, JobsView } from '../../ports/jobs.view';

/** The `spider` of a project's own Scrapy settings: no spider name is empty. */
const PROJECT_LAYER = '';

interface JobRow {
  doc: string;
}

@Injectable()
export class JobsSqlite implements JobsView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    const hasTable = (name: string) => views.writer.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;
    const tagsBeforeListing = hasTable('job_tags') && !hasTable('job_tag_listing');
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS jobs (
        project INTEGER NOT NULL, spider_id INTEGER NOT NULL, number INTEGER NOT NULL, key TEXT NOT NULL,
        state TEXT NOT NULL, priority INTEGER NOT NULL, units INTEGER NOT NULL, ord INTEGER NOT NULL, ts INTEGER NOT NULL,
        uniq TEXT, args_key TEXT NOT NULL, fire TEXT, doc TEXT NOT NULL,
        PRIMARY KEY (project, spider_id, number)) WITHOUT ROWID;
      CREATE UNIQUE INDEX IF NOT EXISTS jobs_key ON jobs (key);
      CREATE INDEX IF NOT EXISTS jobs_listing ON jobs (project, state, ts, ord);
      CREATE INDEX IF NOT EXISTS jobs_recent ON jobs (project, ts, ord);
      CREATE INDEX IF NOT EXISTS jobs_queue ON jobs (project, state, priority, ord);
      CREATE INDEX IF NOT EXISTS jobs_fire ON jobs (project, fire) WHERE fire IS NOT NULL;
      CREATE INDEX IF NOT EXISTS jobs_running ON jobs (project) WHERE state = 'running';
      CREATE TABLE IF NOT EXISTS job_tag_listing (
        project INTEGER NOT NULL, tag TEXT NOT NULL, key TEXT NOT NULL, spider_id INTEGER NOT NULL, state TEXT NOT NULL, ts INTEGER NOT NULL, ord INTEGER NOT NULL,
        PRIMARY KEY (project, tag, key)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS job_tag_listing_filters ON job_tag_listing (project, tag, spider_id, state, ts, ord);
      CREATE TABLE IF NOT EXISTS spiders (
        project INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, tags TEXT NOT NULL,
        PRIMARY KEY (project, id)) WITHOUT ROWID;
      CREATE UNIQUE INDEX IF NOT EXISTS spiders_name ON spiders (project, name);
      CREATE TABLE IF NOT EXISTS project_settings (project INTEGER PRIMARY KEY, doc TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS scrapy_settings (project INTEGER NOT NULL, spider TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (project, spider)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS job_decisions (request_id TEXT PRIMARY KEY, decision TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS jobs_decided_through (partition INTEGER PRIMARY KEY, request_offset INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS runner_liveness (
        project INTEGER NOT NULL, runner TEXT NOT NULL, silent_since INTEGER, heard_at INTEGER NOT NULL, PRIMARY KEY (project, runner)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS botgroups (name TEXT PRIMARY KEY, max_running INTEGER) WITHOUT ROWID;
    `);
    if (tagsBeforeListing) {
      // A view built when the tags table held only (project, tag, key): its rows move over once, with their jobs' listing columns.
      views.writer.transaction(() => {
        views.writer.exec(`INSERT OR IGNORE INTO job_tag_listing (project, tag, key, spider_id, state, ts, ord)
          SELECT t.project, t.tag, t.key, j.spider_id, j.state, j.ts, j.ord FROM job_tags t JOIN jobs j ON j.key = t.key; DROP TABLE job_tags;`);
      })();
    }
  }

  /** The decider reads inside the projector's transaction (writer connection). */
  private get w() {
    return this.views.writer;
  }
  private get r() {
    return this.views.reader;
  }

  async spiderByName(project: number, name: string): Promise<SpiderDoc | null> {
    return spiderOf(this.w.prepare('SELECT project, id, name, seq, tags FROM spiders WHERE project = ? AND name = ?').get(project, name));
  }

  async maxSpiderId(project: number): Promise<number> {
    return (this.w.prepare('SELECT MAX(id) AS m FROM spiders WHERE project = ?').get(project) as { m: number | null }).m ?? 0;
  }

  async job(key: string): Promise<JobDoc | null> {
    return this.one(this.w, 'SELECT doc FROM jobs WHERE key = ?', [key]);
  }

  async hasActiveJob(project: number, match: { unique?: string; spiderId?: number; argsKey?: string }): Promise<boolean> {
    const where = [`project = ?`, `state IN ('pending', 'running')`];
    const args: unknown[] = [project];
    if (match.unique !== undefined) (where.push('uniq = ?'), args.push(match.unique));
    if (match.spiderId !== undefined) (where.push('spider_id = ?'), args.push(match.spiderId));
    if (match.argsKey !== undefined) (where.push('args_key = ?'), args.push(match.argsKey));
    return this.w.prepare(`SELECT 1 FROM jobs WHERE ${where.join(' AND ')} LIMIT 1`).get(...args) !== undefined;
  }

  async nextPending(project: number, maxUnits: number | null, spiderIds: number[] | null): Promise<JobDoc | null> {
    if (spiderIds && spiderIds.length === 0) return null;
    const where = [`project = ?`, `state = 'pending'`];
    const args: unknown[] = [project];
    if (maxUnits !== null) (where.push('units <= ?'), args.push(maxUnits));
    if (spiderIds) (where.push(`spider_id IN (${spiderIds.map(() => '?').join(',')})`), args.push(...spiderIds));
    return this.one(this.w, `SELECT doc FROM jobs WHERE ${where.join(' AND ')} ORDER BY priority DESC, ord ASC LIMIT 1`, args);
  }

  async hasFired(project: number, fire: string): Promise<boolean> {
    return this.w.prepare('SELECT 1 FROM jobs WHERE project = ? AND fire = ?').get(project, fire) !== undefined;
  }

  async jobsOfSpider(project: number, spiderId: number): Promise<JobDoc[]> {
    return this.many(this.w, 'SELECT doc FROM jobs WHERE project = ? AND spider_id = ? ORDER BY number', [project, spiderId]);
  }

  async outcome(requestId: string): Promise<JobsDecision | null> {
    const row = this.r.prepare('SELECT decision FROM job_decisions WHERE request_id = ?').get(requestId) as { decision: string } | undefined;
    return row ? JSON.parse(row.decision) : null;
  }

  async saveOutcome(_at: LogPosition, requestId: string, decision: JobsDecision): Promise<void> {
    this.w.prepare('INSERT OR IGNORE INTO job_decisions (request_id, decision) VALUES (?, ?)').run(requestId, JSON.stringify(decision));
  }

  async decidedThrough(partition: number): Promise<number> {
    const row = this.w.prepare('SELECT request_offset FROM jobs_decided_through WHERE partition = ?').get(partition) as { request_offset: number } | undefined;
    return row?.request_offset ?? -1;
  }

  async markDecided(_at: LogPosition, partition: number, requestOffset: number): Promise<void> {
    this.w
      .prepare(
        `INSERT INTO jobs_decided_through (partition, request_offset) VALUES (?, ?)
         ON CONFLICT (partition) DO UPDATE SET request_offset = MAX(request_offset, excluded.request_offset)`,
      )
      .run(partition, requestOffset);
  }

  async builtBeforeFacts(): Promise<boolean> {
    // The release that decided while projecting kept its decisions in job_outcomes; a replay
    // drops every table, and the schema no longer makes that one.
    return this.w.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'job_outcomes'`).get() !== undefined;
  }

  async putSpiders(_at: LogPosition, spiders: SpiderDoc[]): Promise<void> {
    const put = this.w.prepare('INSERT OR REPLACE INTO spiders (project, id, name, seq, tags) VALUES (?, ?, ?, ?, ?)');
    for (const s of spiders) put.run(s.project, s.id, s.name, s.seq, JSON.stringify(s.tags));
  }

  async putJobs(_at: LogPosition, jobs: JobDoc[]): Promise<void> {
    const put = this.w.prepare(
      `INSERT OR REPLACE INTO jobs (project, spider_id, number, key, state, priority, units, ord, ts, uniq, args_key, fire, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const dropTags = this.w.prepare('DELETE FROM job_tag_listing WHERE project = ? AND key = ? AND tag = ?');
    // A tag's row carries its job's listing columns, so a tag filter with spider, state and time bounds is one index range.
    const putTag = this.w.prepare('INSERT OR REPLACE INTO job_tag_listing (project, tag, key, spider_id, state, ts, ord) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const j of jobs) {
      const before = (await this.job(j.key))?.tags ?? [];
      put.run(j.project, j.spiderId, j.number, j.key, j.state, j.priority, j.units, j.order, j.ts, j.unique, j.argsKey, j.fire ?? null, JSON.stringify(j));
      for (const t of before) if (!j.tags.includes(t)) dropTags.run(j.project, j.key, t);
      for (const t of j.tags) putTag.run(j.project, t, j.key, j.spiderId, j.state, j.ts, j.order);
    }
  }

  async dropJobs(_at: LogPosition, keys: string[]): Promise<void> {
    const dropJob = this.w.prepare('DELETE FROM jobs WHERE key = ?');
    const dropTags = this.w.prepare('DELETE FROM job_tag_listing WHERE project = ? AND key = ?');
    for (const key of keys) {
      dropJob.run(key);
      dropTags.run(Number(key.split('/')[0]), key);
    }
  }

  async list(filter: JobFilter, page: { offset: number; limit: number }): Promise<JobDoc[]> {
    // Newest first along jobs_recent, checking each job's tags, fills a page of a common tag
    // at once but walks the whole project for a rare one: then the tagged jobs go first.
    const tags = filter.hasTags?.length && this.fewTagged(filter.project, filter.hasTags) ? 'tagged-first' : 'newest-first';
    const { from, where, args } = queryOf(filter, tags);
    return this.many(this.r, `SELECT doc FROM ${from} WHERE ${where} ORDER BY ts DESC, ord DESC LIMIT ? OFFSET ?`, [...args, page.limit, page.offset]);
  }

  async count(filter: JobFilter): Promise<number> {
    // (No states is every state; any other condition present, even an empty list, narrows.)
    const { hasTags, keys, lacksTags, newerThan } = filter;
    if (hasTags?.length && keys === undefined && !lacksTags?.length && newerThan === undefined) {
      // Tags with spider, state and time bounds: the tags table answers by itself (a job with two of the tags counts once).
      const { where, args } = taggedRows(filter);
      return (this.r.prepare(`SELECT COUNT(DISTINCT key) AS n FROM job_tag_listing WHERE ${where}`).get(...args) as { n: number }).n;
    }
    const { from, where, args } = queryOf(filter, 'tagged-first');
    return (this.r.prepare(`SELECT COUNT(*) AS n FROM ${from} WHERE ${where}`).get(...args) as { n: number }).n;
  }

  /** Whether at most FEW_TAGGED tag rows of `tags` exist in the project (counted no further). */
  private fewTagged(project: number, tags: string[]): boolean {
    const sql = `SELECT COUNT(*) AS n FROM (SELECT 1 FROM job_tag_listing WHERE project = ? AND tag IN (${tags.map(() => '?').join(',')}) LIMIT ?)`;
    return (this.r.prepare(sql).get(project, ...tags, FEW_TAGGED + 1) as { n: number }).n <= FEW_TAGGED;
  }

  async spiders(project: number): Promise<SpiderDoc[]> {
    return this.r.prepare('SELECT project, id, name, seq, tags FROM spiders WHERE project = ? ORDER BY name').all(project).map((row) => spiderOf(row)!);
  }

  async spiderById(project: number, id: number): Promise<SpiderDoc | null> {
    return spiderOf(this.w.prepare('SELECT project, id, name, seq, tags FROM spiders WHERE project = ? AND id = ?').get(project, id));
  }

  async settings(project: number): Promise<Record<string, unknown>> {
    const row = this.w.prepare('SELECT doc FROM project_settings WHERE project = ?').get(project) as { doc: string } | undefined;
    return row ? JSON.parse(row.doc) : {};
  }

  async putSettings(_at: LogPosition, project: number, settings: Record<string, unknown>): Promise<void> {
    this.w.prepare('INSERT OR REPLACE INTO project_settings (project, doc) VALUES (?, ?)').run(project, JSON.stringify(settings));
  }

  async scrapySettings(project: number, spider: string | null): Promise<Record<string, unknown>> {
    const row = this.w.prepare('SELECT doc FROM scrapy_settings WHERE project = ? AND spider = ?').get(project, spider ?? PROJECT_LAYER) as { doc: string } | undefined;
    return row ? JSON.parse(row.doc) : {};
  }

  async putScrapySettings(_at: LogPosition, project: number, spider: string | null, settings: Record<string, unknown>): Promise<void> {
    this.w.prepare('INSERT OR REPLACE INTO scrapy_settings (project, spider, doc) VALUES (?, ?, ?)').run(project, spider ?? PROJECT_LAYER, JSON.stringify(settings));
  }

  async runningJobs(project: number): Promise<JobDoc[]> {
    return this.many(this.w, `SELECT doc FROM jobs WHERE project = ? AND state = 'running' ORDER BY key`, [project]);
  }

  async runnersOf(project: number): Promise<RunnerLiveness[]> {
    const rows = this.w.prepare('SELECT runner, silent_since FROM runner_liveness WHERE project = ? ORDER BY runner').all(project) as { runner: string; silent_since: number | null }[];
    return rows.map((r) => ({ project, runner: r.runner, silentSince: r.silent_since }));
  }

  async putRunners(at: LogPosition, project: number, runners: { put: RunnerLiveness[]; drop: string[] }, heardAt = at.offset): Promise<void> {
    const heard = this.w.prepare(
      `INSERT INTO runner_liveness (project, runner, silent_since, heard_at) VALUES (?, ?, NULL, ?)
       ON CONFLICT (project, runner) DO UPDATE SET silent_since = NULL, heard_at = MAX(heard_at, excluded.heard_at)`,
    );
    const silence = this.w.prepare(
      `INSERT INTO runner_liveness (project, runner, silent_since, heard_at) VALUES (?, ?, ?, -1)
       ON CONFLICT (project, runner) DO UPDATE SET silent_since = excluded.silent_since WHERE heard_at <= ?`,
    );
    const drop = this.w.prepare('DELETE FROM runner_liveness WHERE project = ? AND runner = ?');
    for (const r of runners.put) {
      if (r.silentSince === null) heard.run(project, r.runner, heardAt);
      else silence.run(project, r.runner, r.silentSince, heardAt);
    }
    for (const runner of runners.drop) drop.run(project, runner);
  }

  async putBotgroup(_at: LogPosition, name: string, maxRunning: number | null | undefined): Promise<void> {
    if (maxRunning === undefined) this.w.prepare('DELETE FROM botgroups WHERE name = ?').run(name);
    else this.w.prepare('INSERT OR REPLACE INTO botgroups (name, max_running) VALUES (?, ?)').run(name, maxRunning);
  }

  async botgroups(names: string[]): Promise<{ name: string; maxRunning: number | null }[]> {
    if (names.length === 0) return [];
    const rows = this.r.prepare(`SELECT name, max_running FROM botgroups WHERE name IN (${names.map(() => '?').join(',')}) ORDER BY name`).all(...names) as { name: string; max_running: number | null }[];
    return rows.map((r) => ({ name: r.name, maxRunning: r.max_running }));
  }

  async projectsWithRunnerJobs(): Promise<number[]> {
    const rows = this.r
      .prepare(`SELECT DISTINCT project FROM jobs WHERE state = 'running' AND json_extract(doc, '$.meta._runner') IS NOT NULL ORDER BY project`)
      .all() as { project: number }[];
    return rows.map((r) => r.project);
  }

  async lastFire(project: number, schedule: string): Promise<number | null> {
    const rows = this.r.prepare('SELECT fire FROM jobs WHERE project = ? AND fire >= ? AND fire < ?').all(project, `${schedule}@`, `${schedule}A`) as { fire: string }[];
    return rows.length ? Math.max(...rows.map((r) => Number(r.fire.slice(schedule.length + 1)))) : null;
  }

  async stateCounts(project?: number): Promise<{ project: number; counts: Record<JobState, number> }[]> {
    const rows = this.r
      .prepare(`SELECT project, state, COUNT(*) AS n FROM jobs ${project === undefined ? '' : 'WHERE project = ?'} GROUP BY project, state ORDER BY project`)
      .all(...(project === undefined ? [] : [project])) as { project: number; state: JobState; n: number }[];
    const byProject = new Map<number, Record<JobState, number>>();
    for (const r of rows) {
      const counts = byProject.get(r.project) ?? (Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>);
      counts[r.state] = r.n;
      byProject.set(r.project, counts);
    }
    return [...byProject].map(([p, counts]) => ({ project: p, counts }));
  }

  private one(db: SqliteViewDatabase['reader'], sql: string, args: unknown[]): JobDoc | null {
    const row = db.prepare(sql).get(...args) as JobRow | undefined;
    return row ? (JSON.parse(row.doc) as JobDoc) : null;
  }

  private many(db: SqliteViewDatabase['reader'], sql: string, args: unknown[]): JobDoc[] {
    return (db.prepare(sql).all(...args) as JobRow[]).map((r) => JSON.parse(r.doc) as JobDoc);
  }
}

function spiderOf(row: unknown): SpiderDoc | null {
  if (!row) return null;
  const r = row as Omit<SpiderDoc, 'tags'> & { tags: string };
  return { project: r.project, id: r.id, name: r.name, seq: r.seq, tags: JSON.parse(r.tags) };
}

/** Up to this many tagged jobs, a tag filter reads the tagged jobs and sorts them, rather than walking the project newest first. */
const FEW_TAGGED = 10_000;

/** The tag rows of a filter's `hasTags` that meet its spider, state and time conditions too (the listing index covers them). */
function taggedRows(f: JobFilter): { where: string; args: unknown[] } {
  const where = ['project = ?'];
  const args: unknown[] = [f.project];
  const list = (col: string, values: unknown[]) => {
    where.push(values.length ? `${col} IN (${values.map(() => '?').join(',')})` : '0');
    args.push(...values);
  };
  list('tag', f.hasTags ?? []);
  if (f.spiderIds) list('spider_id', f.spiderIds);
  if (f.states?.length) list('state', f.states);
  if (f.startts !== undefined) (where.push('ts >= ?'), args.push(f.startts));
  if (f.endts !== undefined) (where.push('ts <= ?'), args.push(f.endts));
  return { where: where.join(' AND '), args };
}

/**
 * The rows and conditions of a filter. `tags` is how `hasTags` is checked: `newest-first`
 * per job met along the newest-first index (quick to fill a page when many jobs carry the
 * tags), `tagged-first` by reading the tagged jobs from the tags table and only them (quick
 * when few do, and for counts, which meet every job anyway; CROSS JOIN keeps SQLite to that order).
 */
function queryOf(f: JobFilter, tags: 'newest-first' | 'tagged-first'): { from: string; where: string; args: unknown[] } {
  let from = 'jobs';
  const fromArgs: unknown[] = [];
  const where = ['project = ?'];
  const args: unknown[] = [f.project];
  const list = (col: string, values: unknown[]) => {
    where.push(`${col} IN (${values.map(() => '?').join(',')})`);
    args.push(...values);
  };
  if (f.states?.length) list('state', f.states);
  if (f.spiderIds) f.spiderIds.length ? list('spider_id', f.spiderIds) : where.push('0');
  if (f.keys) f.keys.length ? list('key', f.keys) : where.push('0');
  if (f.startts !== undefined) (where.push('ts >= ?'), args.push(f.startts));
  if (f.endts !== undefined) (where.push('ts <= ?'), args.push(f.endts));
  if (f.hasTags?.length) {
    const anyOf = f.hasTags.map(() => '?').join(',');
    if (tags === 'newest-first') {
      where.push(`EXISTS (SELECT 1 FROM job_tag_listing t WHERE t.project = jobs.project AND t.tag IN (${anyOf}) AND t.key = jobs.key)`);
      args.push(...f.hasTags);
    } else {
      // Only the tagged jobs that also meet the spider, state and time conditions are joined.
      const tagged = taggedRows(f);
      from = `(SELECT DISTINCT key AS tagged_key FROM job_tag_listing WHERE ${tagged.where}) CROSS JOIN jobs ON jobs.key = tagged_key`;
      fromArgs.push(...tagged.args);
    }
  }
  for (const tag of f.lacksTags ?? []) {
    where.push('NOT EXISTS (SELECT 1 FROM job_tag_listing t WHERE t.project = jobs.project AND t.tag = ? AND t.key = jobs.key)');
    args.push(tag);
  }
  if (f.newerThan) {
    where.push('(ts > ? OR (ts = ? AND ord > ?))');
    args.push(f.newerThan.ts, f.newerThan.ts, f.newerThan.order);
  }
  return { from, where: where.join(' AND '), args: [...fromArgs, ...args] };
}
