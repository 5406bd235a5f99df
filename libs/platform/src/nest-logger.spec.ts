import { Logger } from '@nestjs/common';
import { loadConfig } from '@crawlhub/config';
import { logColours, nestLogger } from './nest-logger';

describe('logColours', () => {
  const tty = { isTTY: true };
  const pipe = {};
  const colour = { noColor: false };
  it('colours only when stdout and stderr are both terminals', () => {
    expect(logColours(colour, [tty, tty])).toBe(true);
    expect(logColours(colour, [pipe, tty])).toBe(false);
    expect(logColours(colour, [tty, pipe])).toBe(false);
    expect(logColours(colour, [pipe, pipe])).toBe(false);
  });
  it('never colours with NO_COLOR set to anything but the empty string (no-color.org)', () => {
    expect(logColours(loadConfig({ NO_COLOR: '1' }), [tty, tty])).toBe(false);
    expect(logColours(loadConfig({ NO_COLOR: 'false' }), [tty, tty])).toBe(false);
    expect(logColours(loadConfig({ NO_COLOR: '' }), [tty, tty])).toBe(true);
    expect(logColours(loadConfig({}), [tty, tty])).toBe(true);
  });
});

describe('nestLogger and LOG_LEVEL', () => {
  /** What a `new Logger(context).log(...)` line writes to stdout under LOG_LEVEL `level`. */
  function printed(level: string | undefined, context: string, message: string): string {
    const writes: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (writes.push(String(chunk)), true));
    try {
      Logger.overrideLogger(nestLogger(loadConfig(level === undefined ? {} : { LOG_LEVEL: level }), false));
      new Logger(context).log(message);
    } finally {
      write.mockRestore();
      Logger.overrideLogger(new Logger());
    }
    return writes.join('');
  }

  it('shows info lines at LOG_LEVEL=info, the default (the scheduler\'s "fired" line)', () => {
    expect(printed('info', 'Scheduler', 'schedule a1 (0 9 * * MON) fired 1/2/3')).toContain('[Scheduler] schedule a1 (0 9 * * MON) fired 1/2/3');
    expect(printed(undefined, 'Scheduler', 'fired 1/2/4')).toContain('fired 1/2/4');
  });

  it('hides them at warn and error, and keeps Nest\'s start-up chatter for debug', () => {
    expect(printed('warn', 'Scheduler', 'fired 1/2/3')).toBe('');
    expect(printed('error', 'Scheduler', 'fired 1/2/3')).toBe('');
    expect(printed('info', 'RoutesResolver', 'JobsController {/api/jobs}')).toBe('');
    expect(printed('debug', 'RoutesResolver', 'JobsController {/api/jobs}')).toContain('JobsController {/api/jobs}');
  });
});
