import { ManualClock, SequentialIds } from '@crawlhub/contracts';
import { SetBotgroupCommand } from '../set-botgroup/set-botgroup.command';
import { SetScheduleCommand } from './set-schedule.command';

const actor = { kind: 'system', id: 'test' } as const;
const schedule = (input: Record<string, unknown>) => new SetScheduleCommand({ set: { project: 5, spider: 's', cron: '0 * * * *', by: 'me', ...input } }, actor, { clock: new ManualClock(Date.UTC(2026, 0, 1)), ids: new SequentialIds() });

describe('SetScheduleCommand checks a schedule as dash schedules/add.json answers', () => {
  it('fills the defaults, a new id (of the ids it is given) among them', () => {
    const { change, id } = schedule({});
    expect(id).toBe('00000001');
    expect(change).toEqual({ set: { project: 5, spider: 's', cron: '0 * * * *', id, spiderArgs: {}, enabled: true, priority: 2, units: 1, tags: [], by: 'me' } });
  });

  it.each([
    [{ spider: null }, 'spider is required'],
    [{ cron: '' }, 'cron is required (five fields, UTC: minute hour day month weekday)'],
    [{ cron: '61 * * * *' }, expect.stringMatching(/^invalid cron expression "61 \* \* \* \*"/)],
    [{ id: 'a b' }, 'id must be 1 to 64 letters, digits, _ or -'],
    [{ priority: 5 }, 'Invalid priority: 5 (an integer from 0 to 4)'],
    [{ units: 7 }, 'Invalid units: 7 (an integer from 1 to 6)'],
  ])('refuses %j: %s', (input, message) => {
    expect(() => schedule(input)).toThrow(expect.objectContaining({ status: 400, message }));
  });
});

describe('SetBotgroupCommand', () => {
  it('takes a name and a max_running from 1, or null', () => {
    expect(new SetBotgroupCommand('g-1', 3, false, actor)).toMatchObject({ name: 'g-1', maxRunning: 3 });
    expect(new SetBotgroupCommand('g-1', null, false, actor)).toMatchObject({ maxRunning: null });
  });

  it.each([[0], [1.5], ['2'], [100_001]])('refuses max_running %j', (maxRunning) => {
    expect(() => new SetBotgroupCommand('g', maxRunning, false, actor)).toThrow(expect.objectContaining({ status: 400, message: 'max_running must be an integer from 1 to 100000, or null (no limit)' }));
  });

  it('refuses a name that is not one', () => {
    expect(() => new SetBotgroupCommand('a/b', null, true, actor)).toThrow(expect.objectContaining({ status: 400, message: 'Invalid botgroup name: "a/b" (1 to 64 letters, digits, _ . or -)' }));
  });
});
