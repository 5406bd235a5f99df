import { inDomain } from './target-guard';

export interface BanRule {
  domain?: string;
  status?: number[];
  body?: string[];
}

/** The rules that apply to a response of `host` with `status`. */
export function rulesFor(rules: BanRule[], host: string, status: number): BanRule[] {
  return rules.filter((r) => (r.domain === undefined || inDomain(host, r.domain)) && (r.status === undefined || r.status.includes(status)));
}

/** Whether some rule makes it a ban without looking at the body (a status-only rule). */
export function bannedByStatus(rules: BanRule[]): boolean {
  return rules.some((r) => r.body === undefined);
}

/** Whether a body-marker rule needs the start of the body. */
export function needsBody(rules: BanRule[]): boolean {
  return !bannedByStatus(rules) && rules.some((r) => r.body !== undefined);
}

/** Whether the start of the body carries a marker of one of the rules. */
export function bannedByBody(rules: BanRule[], prefix: Buffer): boolean {
  const text = prefix.toString('latin1');
  return rules.some((r) => r.body?.some((m) => text.includes(Buffer.from(m, 'utf8').toString('latin1'))));
}
