import { loadConfig } from '@crawlhub/config';
import { withCorrelationId } from '@crawlhub/contracts';
import { nestLogger } from './nest-logger';

describe('LOG_FORMAT=json', () => {
  const lines = (work: () => void): Record<string, unknown>[] => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    try {
      work();
    } finally {
      spy.mockRestore();
      out.mockRestore();
    }
    return written.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  };

  it('writes each log line as one JSON object, with the correlation id of the request being handled', () => {
    const logger = nestLogger(loadConfig({ LOG_FORMAT: 'json', LOG_LEVEL: 'warn' }), false);
    const [inside, outside] = lines(() => {
      withCorrelationId('req-7', () => logger.warn('slow view', 'Projector'));
      logger.error('store down', undefined, 'Projector');
    });
    expect(inside).toEqual(expect.objectContaining({ level: 'warn', context: 'Projector', message: 'slow view', correlationId: 'req-7' }));
    expect(outside).toEqual(expect.objectContaining({ level: 'error', context: 'Projector', message: 'store down' }));
    expect(outside).not.toHaveProperty('correlationId');
  });

  it('keeps text lines by default', () => {
    expect(loadConfig({}).logFormat).toBe('text');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT=xml must be one of text, json');
  });
});
