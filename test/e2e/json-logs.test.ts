import { EventLog } from '@crawlhub/eventlog';
import { JOB_DATA_TOPIC } from '@crawlhub/contracts';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';

/**
 * LOG_FORMAT=json (docs/operations.md, Logs): one JSON access line per request, carrying the
 * request's correlation id (X-Request-Id, given or made), and the events the request
 * appended carry the same id, so a log line leads to the events and back.
 */
describe('structured JSON logs', () => {
  let platform: TestPlatform;
  let written: string[];
  let spy: jest.SpyInstance;

  beforeAll(async () => {
    platform = await startTestPlatform({ LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
  }, 60_000);
  afterAll(async () => platform?.stop());
  beforeEach(() => {
    written = [];
    const write = process.stdout.write.bind(process.stdout);
    spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return write(chunk as string, ...(rest as []));
    });
  });
  afterEach(() => spy.mockRestore());

  const accessLines = () => written.flatMap((w) => w.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.context === 'http');

  it('logs each request as one JSON line with its correlation id, the one its events carry', async () => {
    const res = await fetch(`${platform.storageUrl}/items/5/1/1`, { method: 'POST', headers: { Authorization: basic(platform.adminKey), 'X-Request-Id': 'req-ops-42' }, body: '{"a":1}\n' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-ops-42');
    const lines = accessLines();
    expect(lines).toEqual([expect.objectContaining({ message: 'request', api: 'storage', method: 'POST', route: '/:kind/:project/:spider/:job', path: '/items/5/1/1', status: '200', correlationId: 'req-ops-42', level: 'log' })]);
    expect(typeof lines[0].durationMs).toBe('number');

    const log = platform.core.eventLog as EventLog;
    const events = (await Promise.all(Array.from({ length: log.partitionCount(JOB_DATA_TOPIC) }, (_, p) => log.read(JOB_DATA_TOPIC, p, 0, 1000)))).flat();
    const mine = events.filter((e) => e.event.key === '5/1/1');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.event.correlationId === 'req-ops-42')).toBe(true);
  });

  it('makes a correlation id for a request without one, and refuses to echo a malformed one', async () => {
    const res = await fetch(`${platform.storageUrl}/items/5/1/2`, { method: 'POST', headers: { Authorization: basic(platform.adminKey), 'X-Request-Id': 'bad id\twith spaces' }, body: '{"a":1}\n' });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(accessLines()).toEqual([expect.objectContaining({ path: '/items/5/1/2', correlationId: id })]);
  });
});
