import { proxySessionEventProblem, PROXY_SESSION_DELETED, SequentialIds, systemIds } from '@crawlhub/contracts';
import { newSessionId } from './session-id';

describe('newSessionId', () => {
  it('is 16 decimal digits without a leading zero, a valid id of the topic', () => {
    for (let i = 0; i < 1000; i++) {
      const id = newSessionId(systemIds);
      expect(id).toMatch(/^[1-9][0-9]{15}$/);
      expect(proxySessionEventProblem({ type: PROXY_SESSION_DELETED, key: 'key-a', data: { user: 'key-a', id } })).toBeNull();
    }
  });

  it('does not repeat, and uses every leading digit', () => {
    const ids = Array.from({ length: 10_000 }, () => newSessionId(systemIds));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id[0])).size).toBe(9);
  });

  it('comes from the ids it is given: a test\'s are predictable', () => {
    const ids = new SequentialIds();
    expect([newSessionId(ids), newSessionId(ids)]).toEqual(['1000000000000001', '1000000000000002']);
  });
});
