import { basic, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

/** Periodic jobs: one run per cron slot, whoever ticks and however often; missed slots coalesce. */
describe('jobs: periodic schedules', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    // The test drives the scheduler's clock itself.
    p = await startTestPlatform({ SCHEDULER_INTERVAL_MS: '3600000' });
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());

  const dash = async (path: string, form?: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    const res = await fetch(`${p.dashUrl}${path}`, form ? { method: 'POST', body, headers: { authorization: auth } } : { headers: { authorization: auth } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const jobsOf = async (project: number) =>
    ((await (await fetch(`${p.dashUrl}/jobs/list.json?project=${project}`, { headers: { authorization: auth } })).json()) as { jobs: { id: string; spider: string }[] }).jobs;

  it('fires once per slot, never twice, and coalesces missed slots into one run', async () => {
    const added = await dash('/schedules/add.json', { project: '30', spider: 'hourly', cron: '0 * * * *', add_tag: 'periodic', depth: '2' });
    expect(added.status).toBe(200);
    const id = added.body.id as string;
    const list = await dash('/schedules/list.json?project=30');
    expect(list.body.schedules).toEqual([expect.objectContaining({ id, spider: 'hourly', cron: '0 * * * *', enabled: true, spider_args: { depth: '2' } })]);

    const hour = 3600_000;
    const base = Math.ceil(Date.now() / hour) * hour; // the next full hour
    expect(await p.scheduler.tick(base - 1000)).toEqual([]);
    expect(await p.scheduler.tick(base + 5000)).toEqual(['30/1/1']);
    // A second tick for the same slot (or a second scheduler) creates nothing.
    expect(await p.scheduler.tick(base + 9000)).toEqual([]);
    expect(await Promise.all([p.scheduler.tick(base + 20_000), p.scheduler.tick(base + 20_000)])).toEqual([[], []]);
    // Five hours without a scheduler: one run, for the latest missed slot.
    expect(await p.scheduler.tick(base + 5 * hour + 60_000)).toEqual(['30/1/2']);
    const jobs = await jobsOf(30);
    expect(jobs.map((j) => j.id)).toEqual(['30/1/2', '30/1/1']);
    const meta = JSON.parse(await (await fetch(`${p.storageUrl}/jobs/30/1/2`, { headers: { authorization: auth } })).text());
    expect(meta).toMatchObject({ schedule: id, spider_type: 'periodic', scheduled_by: 'periodicjobs', tags: ['periodic'], spider_args: { depth: '2' } });
  });

  it('stops firing when disabled or deleted, and refuses bad schedules', async () => {
    const { body } = await dash('/schedules/add.json', { project: '31', spider: 's', cron: '*/5 * * * *', enabled: 'false' });
    const far = Date.now() + 24 * 3600_000;
    expect(await p.scheduler.tick(far)).not.toContain('31/1/1');
    await dash('/schedules/add.json', { project: '31', id: body.id as string, spider: 's', cron: '*/5 * * * *' });
    expect((await p.scheduler.tick(far)).filter((k) => k.startsWith('31/'))).toEqual(['31/1/1']);
    expect((await dash('/schedules/delete.json', { project: '31', id: body.id as string })).status).toBe(200);
    expect((await p.scheduler.tick(far + 3600_000)).filter((k) => k.startsWith('31/'))).toEqual([]);
    expect((await dash('/schedules/delete.json', { project: '31', id: 'nope' })).status).toBe(404);
    const bad = await dash('/schedules/add.json', { project: '31', spider: 's', cron: '61 * * * *' });
    expect(bad).toEqual({ status: 400, body: { status: 'error', message: expect.stringContaining('invalid cron expression "61 * * * *"') } });
    expect((await dash('/schedules/add.json', { project: '31', spider: 's', cron: '0 0 31 2 *' })).body.message).toContain('never fires');
    expect((await dash('/schedules/add.json', { project: '31', spider: 's' })).status).toBe(400);
  });

  it('takes day names (0 9 * * MON) and answers its next run', async () => {
    const added = await dash('/schedules/add.json', { project: '32', spider: 'weekly', cron: '0 9 * * MON' });
    expect(added.status).toBe(200);
    const [schedule] = (await dash('/schedules/list.json?project=32')).body.schedules as { cron: string; next_run: string }[];
    expect(schedule.cron).toBe('0 9 * * MON');
    const next = new Date(schedule.next_run);
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 9, 0]);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600_000);
    // Its slot fires the spider when the scheduler ticks past it.
    expect(await p.scheduler.tick(next.getTime() + 1000)).toContain('32/1/1');
  });
});
