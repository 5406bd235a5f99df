import { proxySessionEventProblem, PROXY_SESSION_DELETED } from '@crawlhub/contracts';
import { newSessionId } from './session-id';

describe('newSessionId', () => {
  it('is 16 decimal digits without a leading zero, a valid id of the topic', () => {
    for (let i = 0; i < 1000; i++) {
      const id = newSessionId();
      expect(id).toMatch(/^[1-9][0-9]{15}$/);
      expect(proxySessionEventProblem({ type: PROXY_SESSION_DELETED, key: 'key-a', data: { user: 'key-a', id } })).toBeNull();
    }
  });

  it('does not repeat, and uses every leading digit', () => {
    const ids = Array.from({ length: 10_000 }, newSessionId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id[0])).size).toBe(9);
  });
});
