import { closeReasonOf, parseFifoLine } from './line-protocol';

describe('the FIFO line protocol', () => {
  it('reads the five commands', () => {
    expect(parseFifoLine('ITM {"a":1,"_type":"Page"}')).toEqual({ type: 'item', value: { a: 1, _type: 'Page' }, json: '{"a":1,"_type":"Page"}' });
    expect(parseFifoLine('LOG {"time":1,"level":20,"message":"hi"}')).toMatchObject({ type: 'log', value: { time: 1, level: 20, message: 'hi' } });
    expect(parseFifoLine('REQ {"url":"http://127.0.0.1/","status":200}')).toMatchObject({ type: 'request', value: { url: 'http://127.0.0.1/', status: 200 } });
    expect(parseFifoLine('STA {"time":5,"stats":{"item_scraped_count":2}}')).toEqual({ type: 'stats', stats: { item_scraped_count: 2 } });
    expect(parseFifoLine('FIN {"outcome":"finished"}')).toEqual({ type: 'finish', outcome: 'finished' });
  });

  it('ignores blank lines and a trailing carriage return', () => {
    expect(parseFifoLine('')).toBeNull();
    expect(parseFifoLine('   ')).toBeNull();
    expect(parseFifoLine('FIN {"outcome":"done"}\r')).toEqual({ type: 'finish', outcome: 'done' });
  });

  it('says what is wrong with a bad line', () => {
    expect(parseFifoLine('XYZ {}')).toMatchObject({ type: 'invalid', reason: expect.stringContaining('unknown command "XYZ"') });
    expect(parseFifoLine('ITM')).toMatchObject({ type: 'invalid' });
    expect(parseFifoLine('ITM{"a":1}')).toMatchObject({ type: 'invalid' });
    expect(parseFifoLine('ITM {bad')).toMatchObject({ type: 'invalid', reason: expect.stringContaining('not valid JSON') });
    expect(parseFifoLine('ITM [1,2]')).toMatchObject({ type: 'invalid', reason: 'ITM payload must be a JSON object' });
    // An item nested past the limit would be stored but unreadable in msgpack/xml/csv: the job's log says why it was dropped.
    expect(parseFifoLine(`ITM {"a":${'['.repeat(100)}${']'.repeat(100)}}`)).toMatchObject({
      type: 'invalid',
      reason: 'ITM payload is not valid JSON (nested deeper than 100 levels of arrays and objects (the limit))',
    });
    expect(parseFifoLine('STA {"time":1}')).toMatchObject({ type: 'invalid', reason: 'STA payload needs a "stats" object' });
    expect(parseFifoLine('FIN {}')).toMatchObject({ type: 'invalid', reason: 'FIN payload needs an "outcome"' });
  });

  it('decides the close reason', () => {
    const base = { stop: null, outcome: null, exitCode: 0, started: true } as const;
    expect(closeReasonOf(base)).toBe('finished');
    expect(closeReasonOf({ ...base, exitCode: 2 })).toBe('failed');
    expect(closeReasonOf({ ...base, exitCode: null })).toBe('failed'); // killed by a signal
    expect(closeReasonOf({ ...base, started: false, exitCode: null })).toBe('failed');
    expect(closeReasonOf({ ...base, outcome: 'closespider_timeout', exitCode: 1 })).toBe('closespider_timeout');
    expect(closeReasonOf({ ...base, stop: 'cancelled', outcome: 'shutdown' })).toBe('cancelled');
    expect(closeReasonOf({ ...base, stop: 'shutdown', exitCode: null })).toBe('shutdown');
    expect(closeReasonOf({ ...base, stop: 'shutdown', outcome: 'finished' })).toBe('finished');
  });
});
