import type { ExtractionCompleted } from '@crawlhub/contracts';
import { ExtractionUsage } from './extraction-usage';

const done = (id: string, user: string, error: string | null, billable = true): ExtractionCompleted => ({
  id, batch: '0f8fad5b-d9cb-469f-a165-70867728950e', user, worker: 'w', pageType: 'article', result: error ? null : { url: 'u', probability: 1 }, error, billable, downloadMs: 1, extractMs: 1,
});
const day1 = Date.UTC(2026, 10, 20, 23, 59);
const day2 = Date.UTC(2026, 10, 21, 0, 1);

describe('ExtractionUsage', () => {
  it('counts queries, billable ones and errors per key and UTC day, a redone query once', () => {
    const usage = new ExtractionUsage();
    usage.add(done('1', 'key-a', null), day1);
    usage.add(done('2', 'key-a', 'Downloader error: http404'), day1);
    usage.add(done('3', 'key-a', 'Domain a.test is occupied, please retry in 5 seconds', false), day2);
    usage.add(done('1', 'key-a', null), day2);
    usage.add(done('4', 'key-b', null), day1);
    expect(usage.report()).toEqual([
      { day: '2026-11-20', user: 'key-a', queries: 2, billable: 2, errors: 1 },
      { day: '2026-11-20', user: 'key-b', queries: 1, billable: 1, errors: 0 },
      { day: '2026-11-21', user: 'key-a', queries: 1, billable: 0, errors: 1 },
    ]);
  });
});
