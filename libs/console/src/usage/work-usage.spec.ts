import { UsageBuckets, USAGE_GROUPS } from './work-usage';

describe('UsageBuckets', () => {
  it('adds counts into UTC intervals of its width, oldest first, with every counter present', () => {
    const buckets = new UsageBuckets(USAGE_GROUPS.hour, ['fetches', 'renders'] as const);
    buckets.add(Date.UTC(2026, 10, 27, 10, 59, 59), { fetches: 1 });
    buckets.add(Date.UTC(2026, 10, 27, 9, 0), { renders: 1 });
    buckets.add(Date.UTC(2026, 10, 27, 10, 0), { fetches: 1, renders: 1 });
    expect(buckets.entries()).toEqual([
      { time_gte: '2026-11-27T09:00:00.000Z', fetches: 0, renders: 1 },
      { time_gte: '2026-11-27T10:00:00.000Z', fetches: 2, renders: 1 },
    ]);
  });
});
