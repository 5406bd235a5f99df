import { loadConfig } from '@crawlhub/config';
import { logColours } from './nest-logger';

describe('logColours', () => {
  const tty = { isTTY: true };
  const pipe = {};
  const withNoColor = (value?: string) => loadConfig(value === undefined ? {} : { NO_COLOR: value });
  it('colours only when stdout and stderr are both terminals', () => {
    expect(logColours(withNoColor(), [tty, tty])).toBe(true);
    expect(logColours(withNoColor(), [pipe, tty])).toBe(false);
    expect(logColours(withNoColor(), [tty, pipe])).toBe(false);
    expect(logColours(withNoColor(), [pipe, pipe])).toBe(false);
  });
  it('never colours with NO_COLOR set to anything but the empty string (no-color.org)', () => {
    expect(logColours(withNoColor('1'), [tty, tty])).toBe(false);
    expect(logColours(withNoColor('false'), [tty, tty])).toBe(false);
    expect(logColours(withNoColor(''), [tty, tty])).toBe(true);
  });
});
