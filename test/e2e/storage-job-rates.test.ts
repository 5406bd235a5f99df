import { basic, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

/** GET <kind>/<p>/<s>/<j>/rates (docs/storage-api.md "Rates"): a job's records per time bucket, what the console charts. */
describe('storage API: a job’s records over time', () => {
  let platform: TestPlatform;
  let key: string;
  const auth = () => ({ authorization: basic(key) });
  const post = async (path: string, lines: object[]) => {
    const res = await fetch(`${platform.storageUrl}/${path}`, { method: 'POST', headers: auth(), body: lines.map((l) => JSON.stringify(l)).join('\n') });
    expect(res.status).toBe(200);
  };
  const rates = async (path: string) => {
    const res = await fetch(`${platform.storageUrl}/${path}`, { headers: auth() });
    return { status: res.status, body: res.status === 200 ? ((await res.json()) as { bucket: number; rates: [number, number][] }) : (await res.text()).trim() };
  };

  beforeAll(async () => {
    platform = await startTestPlatform();
    key = await platform.createKey([1]);
  });
  afterAll(() => platform?.stop());

  it('counts items per bucket of their commit time, and log lines at a level or above', async () => {
    const before = Date.now();
    await post('items/1/2/3', [{ a: 1 }, { a: 2 }, { a: 3 }]);
    await post('logs/1/2/3', [
      { level: 20, message: 'opened' },
      { level: 40, message: 'boom', time: 1 },
      { level: 50, message: 'worse "level":10' },
      { level: 30, message: 'careful' },
    ]);
    // The next second's bucket.
    await new Promise((r) => setTimeout(r, 1100));
    await post('items/1/2/3', [{ a: 4 }, { a: 5 }]);

    const items = await rates('items/1/2/3/rates?bucket=1');
    expect(items.status).toBe(200);
    const body = items.body as { bucket: number; rates: [number, number][] };
    expect(body.bucket).toBe(1);
    expect(body.rates.map(([, n]) => n)).toEqual([3, 2]);
    const [[first], [second]] = body.rates;
    expect(first % 1000).toBe(0);
    expect(second).toBeGreaterThan(first);
    expect(first).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);

    // Per minute by default: everything in one or two buckets, adding up to the job's count.
    const perMinute = (await rates('items/1/2/3/rates')).body as { bucket: number; rates: [number, number][] };
    expect(perMinute.bucket).toBe(60);
    expect(perMinute.rates.reduce((sum, [, n]) => sum + n, 0)).toBe(5);

    const errors = (await rates('logs/1/2/3/rates?level=40')).body as { rates: [number, number][] };
    expect(errors.rates.map(([, n]) => n)).toEqual([2]);
    expect(((await rates('logs/1/2/3/rates')).body as { rates: [number, number][] }).rates.map(([, n]) => n)).toEqual([4]);
    // A job without records: no buckets.
    expect((await rates('requests/1/2/3/rates')).body).toEqual({ bucket: 60, rates: [] });
  });

  it('refuses a bad bucket or level with a 400 in the storage style, and another project’s job with a 403', async () => {
    expect(await rates('items/1/2/3/rates?bucket=0')).toEqual({ status: 400, body: 'bucket takes whole seconds from 1 to 86400, got "0"' });
    expect((await rates('items/1/2/3/rates?bucket=1e3')).status).toBe(400);
    expect(await rates('items/1/2/3/rates?level=40')).toEqual({ status: 400, body: 'level applies to logs only' });
    expect((await rates('logs/1/2/3/rates?level=high')).status).toBe(400);
    expect((await rates('items/2/1/1/rates')).status).toBe(403);
  });
});
