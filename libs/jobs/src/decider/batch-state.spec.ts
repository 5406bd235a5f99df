import { JobPushRequest, JobsRequest } from '@crawlhub/contracts';
import { SqliteViewDatabase } from '@crawlhub/views';
import { JobsSqlite } from '../adapters/sqlite/jobs.sqlite';
import { decideJobs, JobsDecision } from '../domain/decide-jobs';
import { BatchState } from './batch-state';

const push = (spider: string, more: Partial<JobPushRequest> = {}): JobsRequest => ({
  op: 'push', spider, priority: 2, units: 1, tags: [], spiderArgs: {}, jobSettings: null, meta: {}, unique: null, refuseDuplicateArgs: false, state: 'pending', spiderType: 'manual', by: 'k', fire: null, ...more,
});

/** A project's stream of requests that read what the requests before them decided. */
const REQUESTS: JobsRequest[] = [
  push('alpha'),
  push('alpha', { tags: ['vip'] }),
  push('beta'),
  { op: 'scrapy-settings', spider: 'alpha', set: { DOWNLOAD_DELAY: 2 }, by: 'k' },
  push('alpha', { jobSettings: { LOG_LEVEL: 'INFO' } }),
  { op: 'update', updates: [{ key: '1/1/2', state: 'finished', fields: { note: 'done' } }], by: 'k' },
  { op: 'tags', keys: ['1/1/2'], spider: null, add: ['kept'], remove: ['vip'], by: 'k' },
  // Questions over many jobs: the next pending job, an active job with this unique key.
  { op: 'start', maxUnits: null, maxRunning: null, spiders: [], fields: {}, by: 'runner' },
  push('gamma', { unique: 'u1' }),
  push('gamma', { unique: 'u1' }),
  push('beta'),
];

/** Decides REQUESTS over a fresh view, folding each decision's documents when `fold` is asked. */
async function decideAll(batched: boolean): Promise<{ decisions: JobsDecision[]; folds: number }> {
  const views = new SqliteViewDatabase(':memory:');
  const view = new JobsSqlite(views);
  const pending: JobsDecision[] = [];
  let folds = 0;
  let offset = 0;
  const fold = async () => {
    folds++;
    for (const d of pending.splice(0)) {
      const at = { topic: 'jobs', partition: 0, offset: offset++ };
      await view.putSpiders(at, d.effects.spiders);
      await view.putJobs(at, d.effects.jobs);
      if (d.effects.scrapySettings) await view.putScrapySettings(at, 1, d.effects.scrapySettings.spider, d.effects.scrapySettings.settings);
    }
  };
  const state = new BatchState(view, fold);
  const decisions: JobsDecision[] = [];
  for (const [order, request] of REQUESTS.entries()) {
    const decision = await decideJobs(batched ? state : view, { project: 1, at: 1000 + order, order }, request);
    decisions.push(decision);
    pending.push(decision);
    if (batched) state.add(1, `request-${order}`, decision);
    else await fold();
  }
  await fold();
  await views.close();
  return { decisions, folds };
}

describe('BatchState: deciding a batch of jobs requests on the views with its pending decisions laid over them', () => {
  it('decides what deciding request by request on the folded views decides, folding only before questions over many jobs', async () => {
    const oneByOne = await decideAll(false);
    const batched = await decideAll(true);
    expect(batched.decisions).toEqual(oneByOne.decisions);
    // What the requests read from each other: numbers, spider ids, settings, the updated job, the claim, the unique refusal.
    expect(batched.decisions.filter((d) => d.outcome.op === 'push').map((d) => d.outcome.op === 'push' && [d.outcome.key, d.outcome.error])).toEqual([
      ['1/1/1', null], ['1/1/2', null], ['1/2/1', null], ['1/1/3', null], ['1/3/1', null], ['1/3/2', 'Active job exists with key u1'], ['1/2/2', null],
    ]);
    expect(batched.decisions[4].effects.jobs[0].meta.job_settings).toEqual({ DOWNLOAD_DELAY: 2, LOG_LEVEL: 'INFO' });
    expect(batched.decisions[6].effects.jobs[0].tags).toEqual(['kept']);
    expect(batched.decisions[7].outcome).toEqual({ op: 'start', key: '1/1/1' });
    // One fold before the claim, one before each unique push (the first one's job pending), one at the end: not one per request.
    expect(oneByOne.folds).toBe(REQUESTS.length + 1);
    expect(batched.folds).toBe(4);
  });
});
