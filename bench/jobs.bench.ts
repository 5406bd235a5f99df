import { BENCH_AUTH, httpCall, percentile, report, startPlatform } from './bench-support';

const PROJECT = 1;
export const SPIDERS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
export const TAGS = ['daily', 'weekly', 'retry', 'vip', 'export'];

async function push(url: string, body: Record<string, unknown>): Promise<string> {
  const res = await httpCall(`${url}/jobq/${PROJECT}/push`, 'POST', { authorization: BENCH_AUTH }, Buffer.from(JSON.stringify(body)));
  if (res.status !== 200) throw new Error(`push answered ${res.status}: ${res.text}`);
  return '';
}

/** Latencies (ms, sorted) of `n` calls of `call`, `concurrency` at a time. */
export async function timed(n: number, concurrency: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) {
        const t0 = performance.now();
        await call(i);
        out.push(performance.now() - t0);
      }
    }),
  );
  return out.sort((a, b) => a - b);
}

/** Pushes `n` jobs into project 1 (5 spiders, mixed states and tags), 16 at a time, as the jobs and console sections measure them. */
export async function seedJobs(url: string, n: number): Promise<void> {
  console.log(`  seeding ${n.toLocaleString('en-US')} jobs (5 spiders, mixed states and tags) through jobq/push`);
  await timed(n, 16, (i) =>
    push(url, {
      spider: SPIDERS[i % SPIDERS.length],
      state: i % 10 === 0 ? 'pending' : i % 10 === 1 ? 'running' : 'finished',
      tags: [TAGS[i % TAGS.length], TAGS[(i * 7) % TAGS.length]],
      priority: i % 5,
    }),
  );
}

/**
 * `npm run bench:jobs`: JobQ list with filters over many jobs (target p99 < 50 ms), and
 * schedule-to-running latency with 1,000 pending jobs, next to a baseline request
 * (GET /system/ts) measured in the same run.
 */
export async function jobsBench(options: { jobs: number }): Promise<void> {
  const platform = await startPlatform({});
  try {
    const t0 = performance.now();
    await seedJobs(platform.url, options.jobs);
    report('push (16 concurrent clients)', options.jobs / ((performance.now() - t0) / 1000), 'jobs/s');

    const floor = await timed(300, 1, () => httpCall(`${platform.url}/system/ts`, 'GET', {}));
    const queries = [
      'count=100',
      'spider=gamma&count=100',
      'has_tag=vip&has_tag=export&count=100',
      'lacks_tag=daily&state=finished&state=running&count=100',
      'startts=0&endts=9999999999999&spider=beta&has_tag=retry&count=1000',
      'start=5000&count=100',
    ];
    const lat = await timed(600, 4, (i) => httpCall(`${platform.url}/jobq/${PROJECT}/list?${queries[i % queries.length]}`, 'GET', { authorization: BENCH_AUTH }));
    console.log(`  jobq list with filters over ${options.jobs.toLocaleString('en-US')} jobs: p50 ${percentile(lat, 50).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms (target p99 < 50 ms: ${percentile(lat, 99) < 50 ? 'met' : 'NOT met'}); baseline GET /system/ts p50 ${percentile(floor, 50).toFixed(2)} ms`);

    // 1,000 pending jobs in the queue, then: how long from scheduling to running for a new job.
    await timed(1000, 16, (i) => push(platform.url, { spider: SPIDERS[i % SPIDERS.length], priority: 0 }));
    const toRunning = await timed(100, 1, async (i) => {
      const run = await httpCall(`${platform.dashUrl}/run.json`, 'POST', { authorization: BENCH_AUTH, 'content-type': 'application/x-www-form-urlencoded' }, Buffer.from(`project=${PROJECT}&spider=urgent&priority=4&n=${i}`));
      if (run.status !== 200) throw new Error(`run.json answered ${run.status}`);
      const claim = await httpCall(`${platform.url}/jobq/${PROJECT}/startjob`, 'POST', { authorization: BENCH_AUTH }, Buffer.from('{}'));
      if (claim.status !== 200) throw new Error(`startjob answered ${claim.status}`);
    });
    console.log(`  schedule (run.json) to running (startjob) with 1,000 pending: p50 ${percentile(toRunning, 50).toFixed(1)} ms, p99 ${percentile(toRunning, 99).toFixed(1)} ms`);
  } finally {
    await platform.stop();
  }
}
