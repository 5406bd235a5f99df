import * as contracts from '../index';
import { COLLECTION_RECORDS_WRITTEN, COLLECTIONS_TOPIC } from './collections/collections.topic';
import { JOB_DATA_TOPIC, JOB_DATA_WRITTEN } from './job-data/job-data.topic';
import { JOBS_TOPIC, jobsRequestedType } from './jobs/jobs.topic';
import { eventProblem, TOPIC_CONTRACTS } from './topic-contracts';

const exported = Object.entries(contracts).filter(([, v]) => typeof v === 'string') as [string, string][];

describe('topic contracts', () => {
  it('cover every topic the contracts name', () => {
    const topics = exported.filter(([name]) => name.endsWith('_TOPIC')).map(([, v]) => v);
    expect(topics.length).toBeGreaterThan(10);
    for (const topic of topics) expect([topic, TOPIC_CONTRACTS.has(topic)]).toEqual([topic, true]);
  });

  it('know every event type the contracts name, on the topic whose file names it', () => {
    const known = new Set([...TOPIC_CONTRACTS.values()].flatMap((c) => Object.keys(c.events)));
    const types = exported.filter(([name, v]) => !name.endsWith('_TOPIC') && /^[a-z-]+\.[a-z-]+$/.test(v)).map(([, v]) => v);
    expect(types.length).toBeGreaterThan(30);
    for (const type of types) expect([type, known.has(type)]).toEqual([type, true]);
  });

  const batch = { kind: 'items', job: '1/2/3', start: null, sizes: [12], counts: { name: 1 } };

  it('accept a good event and name what is wrong with a bad one', () => {
    expect(eventProblem(JOB_DATA_TOPIC, { type: JOB_DATA_WRITTEN, key: '1/2/3', data: batch })).toBeNull();
    expect(eventProblem(JOB_DATA_TOPIC, { type: JOB_DATA_WRITTEN, key: '1/2/3', data: { ...batch, kind: 'pictures' } })).toMatch(/^bad kind /);
    expect(eventProblem(JOB_DATA_TOPIC, { type: JOB_DATA_WRITTEN, key: '1/2/3', data: { ...batch, sizes: ['12'] } })).toMatch(/^bad sizes\.0 /);
    expect(eventProblem(JOB_DATA_TOPIC, { type: JOB_DATA_WRITTEN, key: '1/2/3', data: null })).toMatch(/^bad data /);
  });

  it('refuse an event keyed away from the partition that owns its data', () => {
    expect(eventProblem(JOB_DATA_TOPIC, { type: JOB_DATA_WRITTEN, key: '1/2/4', data: batch })).toBe('the key "1/2/4" is not "1/2/3"');
    const ref = { project: 7, type: 's', name: 'seen' };
    expect(eventProblem(COLLECTIONS_TOPIC, { type: COLLECTION_RECORDS_WRITTEN, key: '7', data: ref })).toBeNull();
    expect(eventProblem(COLLECTIONS_TOPIC, { type: COLLECTION_RECORDS_WRITTEN, key: '8', data: ref })).not.toBeNull();
  });

  it('refuse a type on a topic that does not carry it, and an unknown topic', () => {
    expect(eventProblem(JOBS_TOPIC, { type: JOB_DATA_WRITTEN, key: '1/2/3', data: batch })).toBe(`unknown type ${JOB_DATA_WRITTEN}`);
    expect(eventProblem('jobz', { type: JOB_DATA_WRITTEN, key: '1/2/3', data: batch })).toBe('unknown topic jobz');
  });

  it('check a job request by its operation', () => {
    const push = { op: 'push', spider: 's', priority: 2, units: 1, tags: [], spiderArgs: {}, jobSettings: null, meta: {}, unique: null, refuseDuplicateArgs: false, state: 'pending', spiderType: 'manual', by: 'key-a', fire: null };
    const requested = (request: object) => ({ type: jobsRequestedType('push'), key: '5', data: { requestId: 'r1', project: 5, request } });
    expect(eventProblem(JOBS_TOPIC, requested(push))).toBeNull();
    expect(eventProblem(JOBS_TOPIC, requested({ ...push, state: 'sleeping' }))).toMatch(/^bad request\.state /);
    expect(eventProblem(JOBS_TOPIC, requested({ ...push, op: 'launch' }))).toMatch(/^bad request\.op /);
  });
});
