import { basic } from '../support/platform';
import type { Ctx, HostileCase, HostileRequest } from './support/case';
import { startHostilePlatform, HostilePlatform } from './support/hostile-platform';
import { checkSeededReads, fingerprint, seed, witnessReads } from './support/seed';
import { describeAnswer, judge, Outcome } from './support/verdict';
import { NoAnswer, send, sendThroughTunnel, WireAnswer } from './support/wire';
import { STORAGE_CASES } from './cases/storage.cases';
import { DASH_CASES } from './cases/dash.cases';
import { FETCH_CASES } from './cases/fetch.cases';
import { EXTRACTION_CASES } from './cases/extraction.cases';
import { PROXY_CASES } from './cases/proxy.cases';
import { STATS_CASES } from './cases/stats.cases';

/**
 * The hostile-input suite (issue 14, "Done means"): every case of test/hostile/cases/ is sent
 * to one platform (the built `npm start`, SQLite, private targets refused) seeded with witness
 * data. A case passes when the answer is the documented refusal in its API's style, the reads
 * it names answer the same before and after (nothing half-written), no loopback service was
 * reached, and the process is still up. At the end the witness data must read as it did after
 * seeding in every format, and the counts are printed.
 */

jest.setTimeout(120_000);

const FAMILIES: [string, HostileCase[]][] = [
  ['storage', STORAGE_CASES],
  ['dash', DASH_CASES],
  ['fetch', FETCH_CASES],
  ['extraction', EXTRACTION_CASES],
  ['proxy', PROXY_CASES],
  ['stats', STATS_CASES],
];

const counts: Record<Outcome, number> = { '4xx': 0, 'documented refusal': 0, 'accepted safely': 0, '5xx': 0, other: 0 };
const failures: { family: string; name: string; items: number[] }[] = [];
let platform: HostilePlatform;
let ctx: Ctx;
let baseline: Map<string, string>;

function authorization(p: HostilePlatform, r: HostileRequest, c: Ctx): string | null {
  const who = r.as ?? 'admin';
  if (who === 'none') return null;
  if (who === 'admin') return basic(p.adminKey);
  if (who === 'p1') return basic(p.p1.secret);
  if (who === 'p2') return basic(p.p2.secret);
  if ('jobToken' in who) {
    const [job, token] = who.jobToken === 'running' ? [c.seed.runningJob, c.seed.runningToken] : [c.seed.finishedJob, c.seed.finishedToken];
    return `Basic ${Buffer.from(`${job}:${token}`).toString('base64')}`;
  }
  return who.rawAuthorization;
}

/** Requests through the proxy (absolute-form, CONNECT) carry the key in Proxy-Authorization; its own routes and every other API in Authorization. */
const isProxied = (r: HostileRequest) => r.api === 'proxy' && (!!r.tunnel || /^[a-z]+:\/\//i.test(r.target));

async function sendCase(r: HostileRequest): Promise<WireAnswer> {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  const auth = authorization(platform, r, ctx);
  if (auth) headers[isProxied(r) ? 'proxy-authorization' : 'authorization'] = auth;
  const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body);
  const base = { port: platform.ports[r.api], target: r.target, headers, body, timeoutMs: r.timeoutMs ?? 30_000 };
  if (r.tunnel) {
    const inner = { method: r.tunnel.method ?? 'GET', target: r.tunnel.target, headers: r.tunnel.headers ?? {} };
    return sendThroughTunnel({ ...base, method: 'CONNECT', inner, tls: r.tunnel.tls ? { ca: platform.ca() } : undefined });
  }
  return send({ ...base, method: r.method ?? 'GET' });
}

async function snapshot(reads: HostileRequest[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const r of reads) {
    try {
      out.set(`${r.api} ${r.target}`, fingerprint(await sendCase(r)));
    } catch (e) {
      out.set(`${r.api} ${r.target}`, `no answer: ${(e as Error).message}`);
    }
  }
  return out;
}

function compare(before: Map<string, string>, after: Map<string, string>): string[] {
  const short = (s: string | undefined) => (s && s.length > 200 ? `${s.slice(0, 200)}…` : s);
  return [...before].filter(([k, v]) => after.get(k) !== v).map(([k, v]) => `${k} changed: before ${JSON.stringify(short(v))}, after ${JSON.stringify(short(after.get(k)))}`);
}

function describeRequest(r: HostileRequest): string {
  const body = r.body === undefined ? '' : ` body ${r.body.length} bytes ${JSON.stringify((Buffer.isBuffer(r.body) ? r.body.toString('latin1') : r.body).slice(0, 120))}`;
  const tunnel = r.tunnel ? ` then ${r.tunnel.method ?? 'GET'} ${r.tunnel.target}${r.tunnel.tls ? ' over TLS' : ''} inside` : '';
  const who = typeof r.as === 'object' ? JSON.stringify(r.as) : (r.as ?? 'admin');
  const target = r.target.length > 200 ? `${r.target.slice(0, 200)}… (${r.target.length} chars)` : r.target;
  return `${r.api} ${r.tunnel ? 'CONNECT' : (r.method ?? 'GET')} ${target}${tunnel} as ${who} ${JSON.stringify(r.headers ?? {})}${body}`;
}

async function runCase(family: string, c: HostileCase): Promise<void> {
  const r = c.request(ctx);
  const reads = c.unchanged?.(ctx) ?? [];
  const before = await snapshot(reads);
  const hits = platform.canary.hits.length;
  const problems: string[] = [];
  let outcome: Outcome = 'other';
  try {
    const answer = await sendCase(r);
    const verdict = await judge(r.api, r.target, isProxied(r) ? 'proxied' : 'direct', c.expect, answer, ctx);
    outcome = verdict.outcome;
    problems.push(...verdict.problems);
    const more = problems.length === 0 && c.after ? await c.after(ctx, answer) : null;
    if (more) problems.push(more);
  } catch (e) {
    if (!(e instanceof NoAnswer)) throw e;
    problems.push(e.message);
  }
  if (platform.exited()) {
    problems.push(`the platform process exited; its last output:\n${platform.output().slice(-1500)}`);
    outcome = outcome === '4xx' ? outcome : 'other';
    await platform.restart();
  }
  problems.push(...compare(before, await snapshot(reads)));
  if (platform.canary.hits.length > hits) problems.push(`a loopback service was reached: ${platform.canary.hits.slice(hits).join(', ')}`);
  counts[outcome]++;
  if (problems.length) {
    failures.push({ family, name: c.name, items: c.items ?? [] });
    throw new Error(`${describeRequest(r)}\n- ${problems.join('\n- ')}`);
  }
}

beforeAll(async () => {
  platform = await startHostilePlatform();
  ctx = { platform, seed: undefined as never, send: sendCase };
  ctx.seed = await seed(ctx);
  const reads = witnessReads(ctx.seed);
  const answers = new Map<string, WireAnswer>();
  for (const r of reads) answers.set(`${r.api} ${r.target}`, await sendCase(r));
  const problems = checkSeededReads(ctx.seed, answers);
  if (problems.length) throw new Error(`the witness data does not read back right after seeding:\n${problems.join('\n')}`);
  baseline = new Map([...answers].map(([k, a]) => [k, fingerprint(a)]));
}, 120_000);

afterAll(async () => {
  const tried = Object.values(counts).reduce((a, b) => a + b, 0);
  const byItem = new Map<string, string[]>();
  for (const f of failures) {
    const key = f.items.length ? `item ${f.items.join(', item ')}` : 'no numbered item (a new bug)';
    byItem.set(key, [...(byItem.get(key) ?? []), `${f.family}: ${f.name}`]);
  }
  const lines = [
    '',
    `hostile input: ${tried} cases tried, ${counts['4xx']} answered 4xx, ${counts['documented refusal']} refused as documented without a 4xx (proxy 523/540, fetch and extraction failure objects), ${counts['accepted safely']} accepted safely, ${counts['5xx']} answered 5xx, ${counts.other} other (accepted, no answer, or the wrong answer)`,
    `hostile input: ${failures.length} cases failed${failures.length ? ':' : ''}`,
    ...[...byItem].flatMap(([item, names]) => [`  ${item}:`, ...names.map((n) => `    ${n}`)]),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  await platform?.stop();
});

for (const [family, cases] of FAMILIES) {
  describe(`hostile input: ${family}`, () => {
    for (const c of cases) {
      const items = c.items?.length ? ` [item ${c.items.join(', item ')}]` : '';
      it(`${c.name}${items}`, () => runCase(family, c));
    }
  });
}

describe('hostile input: afterwards', () => {
  it('every API still answers', async () => {
    const probes: HostileRequest[] = [
      { api: 'storage', target: '/system/ts', as: 'none' },
      { api: 'dash', target: '/api/scrapyd/listprojects.json' },
      { api: 'stats', target: '/stats' },
      { api: 'proxy', target: '/ca.crt', as: 'none' },
      { api: 'proxy', target: 'http://still-answering.invalid/' },
      { api: 'fetch', method: 'POST', target: '/fetch/v2', headers: { 'content-type': 'application/json' }, body: '{"url":"http://still-answering.invalid/"}' },
      { api: 'extraction', method: 'POST', target: '/v1/extract', headers: { 'content-type': 'application/json' }, body: '[{"url":"http://still-answering.invalid/","pageType":"article"}]' },
    ];
    const wrong: string[] = [];
    for (const r of probes) {
      try {
        const a = await sendCase(r);
        const expected = r.target.startsWith('http://') ? 502 : 200;
        if (a.status !== expected) wrong.push(`${describeRequest(r)}: ${describeAnswer(a)}`);
      } catch (e) {
        wrong.push(`${describeRequest(r)}: ${(e as Error).message}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the witness data written before the cases reads the same, in every format', async () => {
    const now = await snapshot(witnessReads(ctx.seed));
    expect(compare(baseline, now)).toEqual([]);
  });
});
