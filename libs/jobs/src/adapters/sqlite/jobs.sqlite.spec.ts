import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobState } from '@crawlhub/contracts';
import { SqliteViewDatabase } from '@crawlhub/views';
import { JobDoc } from '../../domain/job';
import { JobsSqlite } from './jobs.sqlite';

const at = { topic: 'jobs', partition: 0, offset: 0 };

function job(n: number, spiderId: number, state: JobState, tags: string[]): JobDoc {
  const key = `1/${spiderId}/${n}`;
  return { key, project: 1, spiderId, number: n, spider: `s${spiderId}`, state, priority: 2, units: 1, tags, order: n, ts: 1000 + n, unique: null, argsKey: '', fire: null, meta: {}, metaTimes: {} };
}

/** The jobs view's tag filters: the tag rows carry their job's spider, state and time, kept in step with the job. */
describe('JobsSqlite tag filters', () => {
  let views: SqliteViewDatabase;
  afterEach(() => views.close());

  it('counts and lists tags combined with spider, state and time, after the jobs change state and tags', async () => {
    views = new SqliteViewDatabase(':memory:');
    const jobs = new JobsSqlite(views);
    await jobs.putJobs(at, [job(1, 1, 'finished', ['retry']), job(2, 2, 'finished', ['retry', 'vip']), job(3, 2, 'running', ['retry']), job(4, 2, 'finished', ['daily'])]);
    // Job 3 finishes later, job 4 gets the tag: the tag rows follow.
    await jobs.putJobs(at, [{ ...job(3, 2, 'finished', ['retry']), ts: 2000, order: 3 }, job(4, 2, 'finished', ['daily', 'retry'])]);
    const filter = { project: 1, spiderIds: [2], states: ['finished' as JobState], hasTags: ['retry'] };
    expect(await jobs.count(filter)).toBe(3);
    expect((await jobs.list(filter, { offset: 0, limit: 10 })).map((j) => j.key)).toEqual(['1/2/3', '1/2/4', '1/2/2']);
    expect(await jobs.count({ ...filter, startts: 1500 })).toBe(1);
    // A job with two of the tags counts once.
    expect(await jobs.count({ ...filter, hasTags: ['retry', 'vip'] })).toBe(3);
    await jobs.putJobs(at, [job(2, 2, 'finished', ['vip'])]);
    expect(await jobs.count(filter)).toBe(2);
    await jobs.dropJobs(at, ['1/2/3']);
    expect(await jobs.count(filter)).toBe(1);
  });

  it('moves the tags of a view built before the tag rows carried the listing columns', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'jobs-view-')), 'views.db');
    const old = new SqliteViewDatabase(file);
    await new JobsSqlite(old).putJobs(at, [job(1, 1, 'finished', ['retry']), job(2, 2, 'pending', ['retry'])]);
    // The tags table as it was.
    old.writer.exec(`CREATE TABLE job_tags (project INTEGER NOT NULL, tag TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (project, tag, key)) WITHOUT ROWID;
      INSERT INTO job_tags SELECT project, tag, key FROM job_tag_listing; DROP TABLE job_tag_listing;`);
    await old.close();
    views = new SqliteViewDatabase(file);
    const jobs = new JobsSqlite(views);
    expect(await jobs.count({ project: 1, hasTags: ['retry'], states: ['pending'] })).toBe(1);
    expect(views.writer.prepare(`SELECT name FROM sqlite_master WHERE name = 'job_tags'`).get()).toBeUndefined();
  });
});
