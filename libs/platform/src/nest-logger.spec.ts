import { logColours } from './nest-logger';

describe('logColours', () => {
  const tty = { isTTY: true };
  const pipe = {};
  it('colours only when stdout and stderr are both terminals', () => {
    expect(logColours({}, [tty, tty])).toBe(true);
    expect(logColours({}, [pipe, tty])).toBe(false);
    expect(logColours({}, [tty, pipe])).toBe(false);
    expect(logColours({}, [pipe, pipe])).toBe(false);
  });
  it('never colours with NO_COLOR set to anything but the empty string (no-color.org)', () => {
    expect(logColours({ NO_COLOR: '1' }, [tty, tty])).toBe(false);
    expect(logColours({ NO_COLOR: 'false' }, [tty, tty])).toBe(false);
    expect(logColours({ NO_COLOR: '' }, [tty, tty])).toBe(true);
  });
});
