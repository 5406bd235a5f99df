import { MAX_FORGOTTEN_PER_DECISION, PROXY_SESSION_CREATED, PROXY_SESSION_DECIDED, PROXY_SESSION_DELETED, PROXY_SESSIONS_TOUCHED, proxySessionEventProblem } from './proxy-sessions.topic';

const user = 'key-0123456789ab';
const created = { user, id: '1836172', exit: '127.0.0.2', at: 1_700_000_000_000, limit: 5000, idleMs: 1_800_000 };

describe('proxySessionEventProblem', () => {
  it('accepts good events of the three types', () => {
    expect(proxySessionEventProblem({ type: PROXY_SESSION_CREATED, key: user, data: created })).toBeNull();
    expect(proxySessionEventProblem({ type: PROXY_SESSIONS_TOUCHED, key: user, data: { user, lastUsed: { '1836172': 5, '9': 0 } } })).toBeNull();
    expect(proxySessionEventProblem({ type: PROXY_SESSION_DELETED, key: user, data: { user, id: '1836172' } })).toBeNull();
  });

  it('refuses an event keyed by someone else than its user (another partition would decide it)', () => {
    expect(proxySessionEventProblem({ type: PROXY_SESSION_CREATED, key: 'key-other', data: created })).toMatch(/^the key "key-other" is not/);
  });

  it.each([
    ['a non-decimal id', { id: 'abc' }],
    ['an id with a leading zero', { id: '0123' }],
    ['no exit', { exit: '' }],
    ['a negative limit', { limit: -1 }],
    ['a fractional idle time', { idleMs: 1.5 }],
    ['no time', { at: undefined }],
  ])('refuses a created event with %s', (_why, change) => {
    expect(proxySessionEventProblem({ type: PROXY_SESSION_CREATED, key: user, data: { ...created, ...change } })).not.toBeNull();
  });

  it('refuses touches of bad ids or times, and unknown types', () => {
    expect(proxySessionEventProblem({ type: PROXY_SESSIONS_TOUCHED, key: user, data: { user, lastUsed: { x1: 5 } } })).toMatch(/^bad lastUsed\.x1 /);
    expect(proxySessionEventProblem({ type: PROXY_SESSIONS_TOUCHED, key: user, data: { user, lastUsed: { '12': -5 } } })).toMatch(/^bad lastUsed\.12 /);
    expect(proxySessionEventProblem({ type: PROXY_SESSIONS_TOUCHED, key: user, data: { user, lastUsed: [] } })).toMatch(/^bad lastUsed /);
    expect(proxySessionEventProblem({ type: 'proxy-sessions.renamed', key: user, data: { user } })).toBe('unknown type proxy-sessions.renamed');
  });

  describe('decided (the decider\'s fact)', () => {
    const decided = { user, id: '1836172', exit: '127.0.0.2', requestOffset: 7, requestedAt: 1_700_000_000_000, deciderVersion: 1, outcome: 'active', forgotten: ['12', '13'] };
    const problem = (change: Record<string, unknown>) => proxySessionEventProblem({ type: PROXY_SESSION_DECIDED, key: user, data: { ...decided, ...change } });

    it('accepts an outcome, or a failure instead of one', () => {
      expect(problem({})).toBeNull();
      expect(problem({ outcome: 'refused', forgotten: [] })).toBeNull();
      expect(problem({ outcome: undefined, failed: 'the views are gone' })).toBeNull();
    });

    it.each([
      ['neither an outcome nor a failure', { outcome: undefined }],
      ['both an outcome and a failure', { failed: 'x' }],
      ['an unknown outcome', { outcome: 'maybe' }],
      ['no decider version', { deciderVersion: undefined }],
      ['a bad forgotten id', { forgotten: ['x'] }],
      ['more forgotten sessions than one fact may carry', { forgotten: Array.from({ length: MAX_FORGOTTEN_PER_DECISION + 1 }, (_, i) => String(i + 1)) }],
    ])('refuses a fact with %s', (_why, change) => {
      expect(problem(change)).not.toBeNull();
    });
  });
});
