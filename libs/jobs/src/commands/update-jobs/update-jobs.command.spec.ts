import { CancelJobsCommand } from '../cancel-jobs/cancel-jobs.command';
import { StartJobCommand } from '../start-job/start-job.command';
import { TagJobsCommand } from '../tag-jobs/tag-jobs.command';
import { UpdateJobsCommand } from './update-jobs.command';

const actor = { kind: 'system', id: 'runner' } as const;

describe('the job-change commands check their input for every caller', () => {
  it('UpdateJobsCommand takes job and spider keys of its project, a state and client fields', () => {
    expect(new UpdateJobsCommand(3, [{ key: '3/1/2', state: 'finished', fields: { close_reason: 'ok' } }, { key: '3/1' }], 'me', actor).updates).toEqual([
      { key: '3/1/2', state: 'finished', fields: { close_reason: 'ok' } },
      { key: '3/1', state: null, fields: {} },
    ]);
  });

  it.each([
    [[{ key: 5 }], 'Invalid key: 5'],
    [[{ key: '4/1' }], 'Invalid key: "4/1"'],
    [[{ key: '4/1/2' }], 'Invalid job key: "4/1/2" (expected 3/<spider>/<job>)'],
    [[{ key: '3/1/2', state: 'gone' }], 'Invalid state: "gone" (one of pending, running, finished, deleted)'],
    [[{ key: '3/1/2', fields: { auth: 'x' } }], 'Field "auth" is set by the platform and cannot be written'],
    [[{ key: '3/1/2' }, { key: 'x' }], 'Invalid job key: "x" (expected 3/<spider>/<job>)'],
  ])('UpdateJobsCommand refuses %j: %s', (updates, message) => {
    expect(() => new UpdateJobsCommand(3, updates, 'me', actor)).toThrow(expect.objectContaining({ status: 400, message }));
  });

  it('CancelJobsCommand refuses a key of another project', () => {
    expect(new CancelJobsCommand(3, ['3/1/1'], 'me', actor).keys).toEqual(['3/1/1']);
    expect(() => new CancelJobsCommand(3, ['2/1/1'], 'me', actor)).toThrow(expect.objectContaining({ status: 400, message: 'Invalid job key: "2/1/1" (expected 3/<spider>/<job>)' }));
  });

  it('TagJobsCommand needs jobs or a spider, and tags every job of the spider only when no job is named', () => {
    expect(() => new TagJobsCommand(3, { keys: [], spider: null, add: ['a'], remove: [] }, 'me', actor)).toThrow(expect.objectContaining({ status: 400, message: 'job or spider is required' }));
    expect(new TagJobsCommand(3, { keys: ['3/1/1'], spider: 's', add: ['a'], remove: [] }, 'me', actor).tags).toEqual({ keys: ['3/1/1'], spider: null, add: ['a'], remove: [] });
  });

  it.each([[0], [-1], ['x'], [null], [1.5]])('StartJobCommand refuses max_units %j', (maxUnits) => {
    expect(() => new StartJobCommand(3, { maxUnits, by: 'r' }, actor)).toThrow(expect.objectContaining({ status: 400, message: '"max_units" must be a positive integer' }));
  });

  it('StartJobCommand refuses platform fields, which a claim would otherwise write', () => {
    expect(new StartJobCommand(3, { maxUnits: 2, spiders: ['s'], fields: { _runner: 'r1' }, by: 'r' }, actor).claim).toEqual({ maxUnits: 2, spiders: ['s'], fields: { _runner: 'r1' }, by: 'r' });
    expect(() => new StartJobCommand(3, { fields: { state: 'x' }, by: 'r' }, actor)).toThrow(expect.objectContaining({ message: 'Field "state" is set by the platform and cannot be written' }));
  });
});
