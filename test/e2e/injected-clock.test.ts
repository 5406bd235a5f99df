import { JOB_DATA_TOPIC, ManualClock, SequentialIds } from '@crawlhub/contracts';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';

/**
 * Time and ids are the injected CLOCK and IDS (docs/DESIGN.md, "Time and ids"): a test
 * that binds its own clock sees that time in the API's answers and the events' envelopes,
 * and moves it without sleeping.
 */
describe('the injected clock and ids', () => {
  const T0 = Date.parse('2031-05-04T03:02:01.000Z');
  const clock = new ManualClock(T0);
  const ids = new SequentialIds();
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({}, { stamps: { clock, ids } });
  });
  afterAll(() => platform?.stop());

  it('/system/ts answers the clock\'s time, and moves when the test moves it', async () => {
    expect(await (await fetch(`${platform.storageUrl}/system/ts`)).text()).toBe(String(T0));
    clock.advance(90_000);
    expect(await (await fetch(`${platform.storageUrl}/system/ts`)).text()).toBe(String(T0 + 90_000));
  });

  it('stamps the events of a write with the clock\'s time and the ids\' ids', async () => {
    const key = await platform.createKey([7]);
    clock.set(T0 + 3_600_000);
    const res = await fetch(`${platform.storageUrl}/items/7/1/1`, { method: 'POST', headers: { authorization: basic(key) }, body: '{"a":1}\n' });
    expect(res.status).toBe(200);
    const events = [];
    for (let p = 0; p < platform.core.eventLog.partitionCount(JOB_DATA_TOPIC); p++) events.push(...(await platform.core.eventLog.read(JOB_DATA_TOPIC, p, 0, 100)));
    expect(events.length).toBeGreaterThan(0);
    for (const { event } of events) {
      expect(event.occurredAt).toBe(T0 + 3_600_000);
      expect(event.id).toMatch(/^00000000-0000-4000-8000-[0-9a-f]{12}$/);
    }
  });
});
