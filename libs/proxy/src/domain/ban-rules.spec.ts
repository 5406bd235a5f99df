import { bannedByBody, bannedByStatus, needsBody, rulesFor } from './ban-rules';

describe('ban rules', () => {
  const rules = [{ status: [429, 503] }, { domain: 'shop.test', status: [200], body: ['captcha'] }, { body: ['Access denied'] }];
  it('matches status rules for every domain', () => {
    expect(bannedByStatus(rulesFor(rules, 'a.test', 503))).toBe(true);
    expect(bannedByStatus(rulesFor(rules, 'a.test', 200))).toBe(false);
  });
  it('needs the body only for marker rules, per domain', () => {
    expect(needsBody(rulesFor(rules, 'www.shop.test', 200))).toBe(true);
    expect(bannedByBody(rulesFor(rules, 'www.shop.test', 200), Buffer.from('<p>solve the captcha</p>'))).toBe(true);
    expect(bannedByBody(rulesFor(rules, 'other.test', 200), Buffer.from('<p>solve the captcha</p>'))).toBe(false);
    expect(bannedByBody(rulesFor(rules, 'other.test', 200), Buffer.from('Access denied.'))).toBe(true);
  });
});
