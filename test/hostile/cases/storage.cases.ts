import { Ctx, HostileCase, HostileRequest, refused, refusedOrSafe, Who } from '../support/case';
import { deepArray, deepObject, gzip, gzipBomb, jl, MIB, NOT_GZIP, TRUNCATED_GZIP, TWO_POW_53, TWO_POW_64, withInvalidUtf8 } from '../support/payloads';
import { inEveryFormat } from '../support/seed';

/** Storage API (:8002): job records, job metadata, JobQ, activity, collections, frontier, system. Errors are plain text, one line. */

const job = (c: Ctx) => c.seed.runningJob;
const get = (target: string, as?: Who): HostileRequest => ({ api: 'storage', target, as });
const post = (target: string, body: string | Buffer, headers: Record<string, string> = {}, as?: Who): HostileRequest => ({ api: 'storage', method: 'POST', target, body, headers, as });

/** The witness job's records as every reader sees them, and the project's items in msgpack (what a bad record breaks first). */
const jobRecords = (c: Ctx): HostileRequest[] => [
  ...inEveryFormat(`/items/${job(c)}`, 'items'),
  get(`/items/${job(c)}/stats`),
  get('/items/1?format=msgpack'),
  ...['logs', 'requests', 'samples'].flatMap((k) => [get(`/${k}/${job(c)}`), get(`/${k}/${job(c)}?format=msgpack`), get(`/${k}/${job(c)}/stats`)]),
];
const metadata = (c: Ctx) => [get(`/jobs/${job(c)}`), get(`/jobs/${c.seed.finishedJob}`), get(`/jobs/${c.seed.pendingJob}`)];
const jobq = (c: Ctx) => [get('/jobq/1/list?state=pending&state=running&state=finished&state=deleted'), get('/jobq/2/list?state=pending&state=running&state=finished'), ...metadata(c)];
const activity = () => [get('/activity/1'), get('/activity/1?format=msgpack'), get('/activity/1?format=xml')];
const collections = () => [get('/collections/1/s/witness?meta=_key'), get('/collections/1/s/witness?format=msgpack'), get('/collections/1/list'), get('/collections/1/vs/witnessv/k/versions')];
const frontier = () => [get('/hcf/1/witness/s/slot1/q'), get('/hcf/1/witness/s/slot1/f'), get('/hcf/1/list'), get('/hcf/1/witness/list')];
const settings = () => [get('/projects/1/settings')];

const VALID: Record<string, unknown> = {
  items: { name: 'hostile' },
  logs: { message: 'hostile', level: 20, time: 1700000000000 },
  requests: { time: 1700000000000, method: 'GET', url: 'http://x.invalid/', status: 200, duration: 1, rs: 1 },
  samples: [1700000000000, 1],
};
/** A record of this kind with a value nested `depth` levels deep. */
function deepRecord(kind: string, depth: number): string {
  if (kind === 'samples') return `[1700000000000,${deepArray(depth - 1)}]`;
  const base = JSON.stringify(VALID[kind]).slice(0, -1);
  return `${base},"deep":${deepObject(depth - 1)}}`;
}

/** Writes to the witness job that must be refused whole, per record kind. */
function recordWriteCases(kind: 'items' | 'logs' | 'requests' | 'samples'): HostileCase[] {
  const target = (c: Ctx) => `/${kind}/${job(c)}`;
  const valid = JSON.stringify(VALID[kind]);
  const w = (name: string, body: string | Buffer | (() => Buffer), expect = refused(), items?: number[], headers: Record<string, string> = {}): HostileCase => ({
    name: `POST ${kind}: ${name}`,
    items,
    request: (c) => post(target(c), typeof body === 'function' ? body() : body, headers),
    expect,
    unchanged: jobRecords,
  });
  return [
    w('a malformed JSON line after a valid one', `${valid}\n{"broken": \n`),
    w('bytes that are not UTF-8 inside a string', withInvalidUtf8(`${valid}\n${valid.slice(0, -1)},"bad":"`, '"}\n')),
    w('a NaN literal', `${valid.slice(0, -1)},"n":NaN}\n`),
    w('a value nested 10,000 levels', `${valid}\n${deepRecord(kind, 10_000)}\n`, refused(), [5]),
    w('a value nested 4,600 levels', `${valid}\n${deepRecord(kind, 4_600)}\n`, refused(), [5]),
    w('a value nested 1,000 levels', `${valid}\n${deepRecord(kind, 1_000)}\n`, refused(), [5]),
    w('a record over 1 MiB after a valid one', `${valid}\n${JSON.stringify(kind === 'samples' ? [1, 'x'.repeat(MIB)] : { ...(VALID[kind] as object), big: 'x'.repeat(MIB) })}\n`, refused(413)),
    w('Content-Encoding gzip on a body that is not gzip', NOT_GZIP, refused(400), undefined, { 'content-encoding': 'gzip' }),
    w('a gzip stream cut short', TRUNCATED_GZIP, refused(400), undefined, { 'content-encoding': 'gzip' }),
    w('Content-Encoding br', gzip(`${valid}\n`), refused(415), undefined, { 'content-encoding': 'br' }),
    w('a form-encoded body', 'name=hostile&price=1', refused(400), undefined, { 'content-type': 'application/x-www-form-urlencoded' }),
    ...(kind === 'items'
      ? [
          w('a 1 GiB record in 260 KB of gzip', gzipBomb, refused(413), undefined, { 'content-encoding': 'gzip' }),
          w('a line that is an array', `${valid}\n[1,2]\n`),
          w('a line that is a string', `${valid}\n"text"\n`),
          w('a line that is null', `${valid}\nnull\n`),
        ]
      : kind === 'logs'
        ? [w('a level that is a string', '{"message":"m","level":"INFO"}\n'), w('a time that is a float', '{"message":"m","level":20,"time":1.5}\n'), w('no message', '{"level":20}\n')]
        : kind === 'requests'
          ? [w('no url', '{"time":1,"method":"GET","status":200,"duration":1,"rs":1}\n'), w('a status that is a string', '{"time":1,"method":"GET","url":"u","status":"200","duration":1,"rs":1}\n')]
          : [w('a sample that is an object', '{"ts":1}\n'), w('a timestamp that is a float', '[1.5,1]\n')]),
  ];
}

/** Positions (?start=, Content-Range) must be exact integers below 2^53 (item 6). */
const positionCases: HostileCase[] = [
  ...[TWO_POW_53, '99999999999999999999999'].map((n) => ({
    name: `POST items with Content-Range: items ${n}-/*`,
    items: [6],
    request: (c: Ctx) => post(`/items/${job(c)}`, jl({ a: 1 }, { a: 2 }, { a: 3 }), { 'content-range': `items ${n}-/*` }),
    expect: refused(),
    unchanged: jobRecords,
  })),
  {
    name: 'POST items with Content-Range: items 9007199254740990-/* and three lines (the last at 2^53)',
    items: [6],
    request: (c) => post(`/items/${job(c)}`, jl({ a: 1 }, { a: 2 }, { a: 3 }), { 'content-range': 'items 9007199254740990-/*' }),
    expect: refused(),
    unchanged: jobRecords,
  },
  ...[TWO_POW_53, '99999999999999999999999'].map((n) => ({
    name: `POST items with ?start=${n}`,
    items: [6],
    request: (c: Ctx) => post(`/items/${job(c)}?start=${n}`, jl({ a: 1 })),
    expect: refused(),
    unchanged: jobRecords,
  })),
  ...['-1', '1.5', '1e3', 'NaN', '0x10', '', '%00'].map((n) => ({
    name: `POST items with ?start=${n || '(empty)'}`,
    request: (c: Ctx) => post(`/items/${job(c)}?start=${n}`, jl({ a: 1 })),
    expect: refused(),
    unchanged: jobRecords,
  })),
  ...['items -1-/*', 'items abc-/*', 'bytes 0-/*', 'items 1e3-/*'].map((r) => ({
    name: `POST items with Content-Range: ${r}`,
    request: (c: Ctx) => post(`/items/${job(c)}`, jl({ a: 1 }), { 'content-range': r }),
    expect: refused(),
    unchanged: jobRecords,
  })),
  { name: 'GET items with startafter past 2^53', items: [6], request: (c) => get(`/items/${job(c)}?startafter=${job(c)}/${TWO_POW_53}`), expect: refused() },
  { name: 'GET items with start past 2^53', items: [6], request: (c) => get(`/items/${job(c)}?start=${job(c)}/99999999999999999999999`), expect: refused() },
  ...['-1', '1.5', '99999999999999999999', 'NaN'].map((n) => ({ name: `GET items with index=${n}`, request: (c: Ctx) => get(`/items/${job(c)}?index=${n}`), expect: refused() })),
];

/** Read parameters of job records. */
const readCases: HostileCase[] = [
  ...['-1', '1.5', 'NaN', '1e400', '99999999999999999999', 'ten'].map((n) => ({ name: `GET items with count=${n}`, request: (c: Ctx) => get(`/items/${job(c)}?count=${n}`), expect: refused() })),
  { name: 'GET items with format=exe', request: (c) => get(`/items/${job(c)}?format=exe`), expect: refused() },
  { name: 'GET items with Accept: image/png only', request: (c) => ({ ...get(`/items/${job(c)}`), headers: { accept: 'image/png' } }), expect: refused(406) },
  { name: 'GET items with meta=_secret', request: (c) => get(`/items/${job(c)}?meta=_secret`), expect: refused() },
  { name: 'GET items with a malformed filter', request: (c) => get(`/items/${job(c)}?filter=${encodeURIComponent('["name","=",')}`), expect: refused() },
  { name: 'GET items with an unknown filter operator', request: (c) => get(`/items/${job(c)}?filter=${encodeURIComponent('["name","~~",["x"]]')}`), expect: refused() },
  { name: 'GET items as csv without fields', request: (c) => get(`/items/${job(c)}?format=csv`), expect: refused() },
  {
    name: 'GET items with saveas=../../etc/passwd',
    items: [9],
    request: (c) => get(`/items/${job(c)}?saveas=../../etc/passwd`),
    // A file name without a path, as a token (`filename=passwd`, the original's form: spec storage-api.md, compat-notes) or quoted.
    expect: refusedOrSafe('names a file without a path', async (a) => {
      const cd = String(a.headers['content-disposition'] ?? '');
      const m = /filename=(?:"([^"]*)"|([^";\s]+))/.exec(cd);
      const name = m ? m[1] ?? m[2] : null;
      return name && !/[/\\]/.test(name) ? null : `Content-Disposition is ${JSON.stringify(cd)}`;
    }),
  },
  {
    name: 'GET items with saveas holding CR LF and a Set-Cookie',
    request: (c) => get(`/items/${job(c)}?saveas=x.json%0d%0aSet-Cookie:%20session=stolen`),
    expect: refusedOrSafe('adds no header', async (a) => (a.headers['set-cookie'] ? `it set a cookie: ${a.headers['set-cookie']}` : null)),
  },
  {
    name: 'GET items with saveas=日本.json (not Latin-1)',
    items: [9],
    request: (c) => get(`/items/${job(c)}?saveas=${encodeURIComponent('日本.json')}`),
    expect: refusedOrSafe('names the file in an ASCII header', async (a) => (/^[\x20-\x7e]*$/.test(String(a.headers['content-disposition'] ?? '')) ? null : 'Content-Disposition is not ASCII')),
  },
];

/** Paths that are not what the router expects. */
const pathCases: HostileCase[] = [
  { name: 'GET items through ../ segments', request: (c) => get(`/items/${job(c)}/../../../2/1/1`), expect: refused(400, 404) },
  { name: 'GET items with an encoded ../ as spider id', request: () => get('/items/1/..%2F..%2F2/1'), expect: refused(400, 404) },
  { name: 'GET items of project "1%00"', request: () => get('/items/1%00/1/1'), expect: refused() },
  { name: 'POST items to job "1%00"', request: () => post('/items/1/1/1%00', jl({ a: 1 })), expect: refused(), unchanged: jobRecords },
  { name: 'GET items of project "日本" (raw UTF-8 in the path)', request: () => get('/items/日本/1/1'), expect: refused(400, 404) },
  { name: 'GET items of project "%E6%97%A5" (encoded)', request: () => get('/items/%E6%97%A5/1/1'), expect: refused() },
  { name: 'GET items of project -1', request: () => get('/items/-1/1/1'), expect: refused() },
  { name: 'GET items of project 1.5', request: () => get('/items/1.5/1/1'), expect: refused() },
  { name: 'GET items of project 2^64', request: () => get(`/items/${TWO_POW_64}/1/1`), expect: refused() },
  { name: 'GET items with a 5,000-digit job id', request: () => get(`/items/1/1/${'9'.repeat(5000)}`), expect: refused(400, 414) },
  { name: 'GET items with a 20 KB path', request: () => get(`/items/1/1/1/${'a'.repeat(20_000)}`), expect: refused(400, 414, 431) },
  { name: 'GET //items//1 (empty segments)', request: () => get('//items//1'), expect: refused(400, 404) },
  { name: 'PROPFIND on items', request: (c) => ({ ...get(`/items/${job(c)}`), method: 'PROPFIND' }), expect: refused(400, 404, 405) },
  { name: 'GET the system clock through ../', request: () => get('/system/ts/../../items/1', 'none'), expect: refused(401, 404) },
];

/** Who may do what: no key, a wrong key, the other tenant's key, job tokens. */
const authCases: HostileCase[] = [
  { name: 'GET items without a key', request: (c) => get(`/items/${job(c)}`, 'none'), expect: refused(401) },
  { name: 'GET items with an unknown key', request: (c) => get(`/items/${job(c)}`, { rawAuthorization: `Basic ${Buffer.from('0123456789abcdef0123456789abcdef:').toString('base64')}` }), expect: refused(401) },
  { name: 'GET items with Basic credentials that are not base64', request: (c) => get(`/items/${job(c)}`, { rawAuthorization: 'Basic !!!not-base64!!!' }), expect: refused(401) },
  { name: 'GET items with a key holding a NUL', request: (c) => get(`/items/${job(c)}`, { rawAuthorization: `Basic ${Buffer.from(`${'a'.repeat(10)}\u0000:`).toString('base64')}` }), expect: refused(401) },
  { name: 'GET items with a 10,000-character apikey', request: (c) => get(`/items/${job(c)}?apikey=${'k'.repeat(10_000)}`, 'none'), expect: refused(401, 414) },
  { name: 'GET items with a Bearer token', request: (c) => get(`/items/${job(c)}`, { rawAuthorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' }), expect: refused(401) },
  {
    name: 'GET items with a forged job token (alg none)',
    request: (c) => get(`/items/${job(c)}`, { rawAuthorization: `Basic ${Buffer.from(`${job(c)}:eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.${Buffer.from(`{"aud":"job:${job(c)}"}`).toString('base64url')}.`).toString('base64')}` }),
    expect: refused(401),
  },
  { name: "a running job's token reading another job's items", request: (c) => get(`/items/${c.seed.finishedJob}`, { jobToken: 'running' }), expect: refused(403) },
  { name: "a running job's token writing another job's items", request: (c) => post(`/items/${c.seed.finishedJob}`, jl({ a: 1 }), {}, { jobToken: 'running' }), expect: refused(403), unchanged: (c) => [get(`/items/${c.seed.finishedJob}`)] },
  { name: "a running job's token writing a collection", request: () => post('/collections/1/s/witness', jl({ _key: 'k1', value: 'token' }), {}, { jobToken: 'running' }), expect: refused(403), unchanged: collections },
  { name: "a running job's token pushing a job", request: () => post('/jobq/1/push', '{"spider":"by-token"}', {}, { jobToken: 'running' }), expect: refused(403), unchanged: jobq },
  { name: "a finished job's token reading its own items", request: (c) => get(`/items/${c.seed.finishedJob}`, { jobToken: 'finished' }), expect: refused(401) },
  { name: "a finished job's token writing its own items", request: (c) => post(`/items/${c.seed.finishedJob}`, jl({ a: 1 }), {}, { jobToken: 'finished' }), expect: refused(401), unchanged: (c) => [get(`/items/${c.seed.finishedJob}`)] },
];

/** The other tenant's key (project 2) on project 1, and project 1's key on project 2. */
const crossProjectCases: HostileCase[] = [
  ...[
    ['GET items', (c: Ctx) => get(`/items/${job(c)}`, 'p2')],
    ['GET the project\'s items', () => get('/items/1', 'p2')],
    ['GET items stats', (c: Ctx) => get(`/items/${job(c)}/stats`, 'p2')],
    ['GET logs', (c: Ctx) => get(`/logs/${job(c)}`, 'p2')],
    ['GET job metadata', (c: Ctx) => get(`/jobs/${job(c)}`, 'p2')],
    ['GET the job list', () => get('/jobq/1/list', 'p2')],
    ['GET the job count', () => get('/jobq/1/count', 'p2')],
    ['GET the job summary', () => get('/jobq/1/summary', 'p2')],
    ['GET a project job summary', () => get('/projects/1/jobsummary', 'p2')],
    ['GET last job summaries', () => get('/spiders/1/lastjobsummary', 'p2')],
    ['GET a spider id', () => get('/ids/1/spider/running-witness', 'p2')],
    ['GET settings', () => get('/projects/1/settings', 'p2')],
    ['GET activity', () => get('/activity/1', 'p2')],
    ['GET activity of projects 1 and 2', () => get('/activity/projects?p=1&p=2', 'p2')],
    ['GET a collection', () => get('/collections/1/s/witness', 'p2')],
    ['GET a collection record', () => get('/collections/1/s/witness/k1', 'p2')],
    ['GET the collection list', () => get('/collections/1/list', 'p2')],
    ['GET a frontier queue', () => get('/hcf/1/witness/s/slot1/q', 'p2')],
    ['GET the frontier list', () => get('/hcf/1/list', 'p2')],
    ['GET items of project 2 with the project-1 key', (c: Ctx) => get(`/items/${c.seed.otherTenantJob}`, 'p1')],
  ].map(([name, request]) => ({ name: `other tenant: ${name as string}`, request: request as (c: Ctx) => HostileRequest, expect: refused(403) })),
  ...[
    ['POST items', (c: Ctx) => post(`/items/${job(c)}`, jl({ a: 'p2' }), {}, 'p2'), jobRecords],
    ['POST job metadata', (c: Ctx) => post(`/jobs/${job(c)}`, '{"owned":"p2"}', {}, 'p2'), metadata],
    ['DELETE a job metadata field', (c: Ctx) => ({ ...post(`/jobs/${job(c)}/witness`, '', {}, 'p2'), method: 'DELETE' }), metadata],
    ['push a job', () => post('/jobq/1/push', '{"spider":"p2"}', {}, 'p2'), jobq],
    ['start (claim) a job', () => post('/jobq/1/startjob', '{}', {}, 'p2'), jobq],
    ['update a job', (c: Ctx) => post('/jobq/1/update', JSON.stringify({ key: job(c), state: 'finished' }), {}, 'p2'), jobq],
    ['cancel a job', (c: Ctx) => post('/jobq/1/cancel', JSON.stringify([{ key: c.seed.pendingJob }]), {}, 'p2'), jobq],
    ['POST settings', () => post('/projects/1/settings', '{"p2":true}', {}, 'p2'), settings],
    ['POST activity', () => post('/activity/1', '{"event":"p2"}', {}, 'p2'), activity],
    ['POST collection records', () => post('/collections/1/s/witness', jl({ _key: 'k1', value: 'p2' }), {}, 'p2'), collections],
    ['DELETE a collection record', () => ({ ...get('/collections/1/s/witness/k1', 'p2'), method: 'DELETE' }), collections],
    ['rename a collection', () => post('/collections/1/rename?name=witness&new_name=stolen', '', {}, 'p2'), collections],
    ['delete a collection', () => post('/collections/1/delete?name=witness', '', {}, 'p2'), collections],
    ['POST frontier requests', () => post('/hcf/1/witness/s/slot1', jl({ fp: 'p2' }), {}, 'p2'), frontier],
    ['delete frontier batches', (c: Ctx) => post('/hcf/1/witness/s/slot1/q/deleted', jl(c.seed.batchId), {}, 'p2'), frontier],
    ['DELETE a frontier slot', () => ({ ...get('/hcf/1/witness/s/slot1', 'p2'), method: 'DELETE' }), frontier],
    ['POST items to project 2 with the project-1 key', (c: Ctx) => post(`/items/${c.seed.otherTenantJob}`, jl({ a: 'p1' }), {}, 'p1'), (c: Ctx) => [get(`/items/${c.seed.otherTenantJob}`)]],
  ].map(([name, request, unchanged]) => ({
    name: `other tenant: ${name as string}`,
    request: request as (c: Ctx) => HostileRequest,
    expect: refused(403),
    unchanged: unchanged as (c: Ctx) => HostileRequest[],
  })),
  {
    name: 'other tenant: GET /projects/jobsummaries shows only its own projects',
    request: () => get('/projects/jobsummaries', 'p2'),
    expect: refusedOrSafe('lists project 2 only', async (a) => (/"project": ?1\b/.test(a.body.toString()) ? `it shows project 1: ${a.body.toString().slice(0, 200)}` : null)),
  },
];

const metadataCases: HostileCase[] = [
  ...[
    ['malformed JSON', '{"a": '],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"text"'],
    ['bytes that are not UTF-8', withInvalidUtf8('{"a":"', '"}')],
  ].map(([name, body]) => ({ name: `POST job metadata: ${name as string}`, request: (c: Ctx) => post(`/jobs/${job(c)}`, body as string), expect: refused(), unchanged: metadata })),
  ...[10_000, 1_000].map((depth) => ({
    name: `POST job metadata: a value nested ${depth} levels`,
    items: [5],
    request: (c: Ctx) => post(`/jobs/${job(c)}`, deepObject(depth)),
    expect: refused(),
    unchanged: metadata,
  })),
  { name: 'POST one job metadata field: a value nested 10,000 levels', items: [5], request: (c) => post(`/jobs/${job(c)}/deep`, deepObject(10_000)), expect: refused(), unchanged: metadata },
  { name: 'POST the job metadata field "state" alone', request: (c) => post(`/jobs/${job(c)}/state`, '"finished"'), expect: refused(), unchanged: metadata },
  { name: 'DELETE the job metadata field "_key"', request: (c) => ({ ...post(`/jobs/${job(c)}/_key`, ''), method: 'DELETE' }), expect: refused(), unchanged: metadata },
  {
    name: 'POST job metadata overwriting platform fields',
    items: [7],
    request: (c) => post(`/jobs/${job(c)}`, '{"_key":"9/9/9","project":9,"state":"finished","spider":"other","auth":"x"}'),
    expect: refusedOrSafe('keeps the platform fields', async (_a, c) => {
      const meta = JSON.parse((await c.send(get(`/jobs/${job(c)}`))).body.toString()) as Record<string, unknown>;
      return meta.project === 1 && meta.state === 'running' && meta.spider === 'running-witness' && meta._key !== '9/9/9' ? null : `the metadata now reads ${JSON.stringify(meta)}`;
    }),
  },
  {
    name: 'POST job metadata with a __proto__ field',
    request: (c) => post(`/jobs/${job(c)}`, '{"__proto__":{"polluted":true}}'),
    expect: refusedOrSafe('keeps it a plain field', async (_a, c) => {
      const text = (await c.send(get(`/jobs/${job(c)}`))).body.toString();
      const more = (await c.send(get(`/jobs/${c.seed.finishedJob}/polluted`))).body.toString();
      return more === 'null' ? null : `another job's metadata now reads polluted=${more} (${text.slice(0, 200)})`;
    }),
  },
  { name: 'GET job metadata of a whole project', request: () => get('/jobs/1'), expect: refused() },
];

const JOBQ_BAD_PUSHES: [string, string, number[]?][] = [
  ['no spider', '{}'],
  ['an empty spider name', '{"spider":""}'],
  ['a spider name that is a number', '{"spider":123}'],
  ['a spider name with "/"', '{"spider":"a/b"}', [9]],
  ['a spider name with NUL', '{"spider":"a\\u0000b"}', [9]],
  ['a spider name of 10,000 characters', JSON.stringify({ spider: 's'.repeat(10_000) }), [9]],
  ['priority 2.5', '{"spider":"s","priority":2.5}'],
  ['priority -1', '{"spider":"s","priority":-1}'],
  ['priority 1e400', '{"spider":"s","priority":1e400}'],
  ['priority "high"', '{"spider":"s","priority":"high"}'],
  ['units 0', '{"spider":"s","units":0}'],
  ['units -1', '{"spider":"s","units":-1}'],
  ['units 1.5', '{"spider":"s","units":1.5}'],
  ['units 2^64', `{"spider":"s","units":${TWO_POW_64}}`],
  ['state "bogus"', '{"spider":"s","state":"bogus"}'],
  ['tags that are not a list', '{"spider":"s","tags":"a"}'],
  ['metadata nested 10,000 levels', `{"spider":"s","extra":${deepObject(10_000)}}`, [5]],
  ['metadata nested 1,000 levels', `{"spider":"s","extra":${deepObject(1_000)}}`, [5]],
  ['tags nested 10,000 levels', `{"spider":"s","tags":${deepArray(10_000)}}`, [5]],
  ['malformed JSON', '{"spider":'],
];

const jobqCases: HostileCase[] = [
  ...JOBQ_BAD_PUSHES.map(([name, body, items]) => ({ name: `jobq push: ${name}`, items, request: () => post('/jobq/1/push', body), expect: refused(), unchanged: jobq })),
  { name: 'jobq push: bytes that are not UTF-8', request: () => post('/jobq/1/push', withInvalidUtf8('{"spider":"', '"}')), expect: refused(), unchanged: jobq },
  {
    name: 'jobq update: a finished job back to running',
    items: [8],
    request: (c) => post('/jobq/1/update', JSON.stringify({ key: c.seed.finishedJob, state: 'running' })),
    expect: refused(),
    unchanged: jobq,
    after: async (c) => {
      const a = await c.send(get(`/items/${c.seed.finishedJob}`, { jobToken: 'finished' }));
      return a.status === 401 ? null : `the finished job's token now answers ${a.status}`;
    },
  },
  { name: 'jobq update: a running job back to pending', items: [8], request: (c) => post('/jobq/1/update', JSON.stringify({ key: job(c), state: 'pending' })), expect: refused(), unchanged: jobq },
  { name: 'jobq update: deleting a running job', request: (c) => post('/jobq/1/update', JSON.stringify({ key: job(c), state: 'deleted' })), expect: refused(), unchanged: jobq },
  { name: 'jobq update: state "bogus"', request: (c) => post('/jobq/1/update', JSON.stringify({ key: job(c), state: 'bogus' })), expect: refused(), unchanged: jobq },
  { name: "jobq update: project 2's job through project 1", request: (c) => post('/jobq/1/update', JSON.stringify({ key: c.seed.otherTenantJob, state: 'finished' })), expect: refused(400, 403), unchanged: jobq },
  { name: 'jobq update: a valid line then a malformed one', request: (c) => post('/jobq/1/update', `${JSON.stringify({ key: c.seed.pendingJob, tag: 'x' })}\n{"key":`), expect: refused(), unchanged: jobq },
  { name: 'jobq update: fields nested 10,000 levels', items: [5], request: (c) => post('/jobq/1/update', `{"key":"${job(c)}","extra":${deepObject(10_000)}}`), expect: refused(), unchanged: jobq },
  { name: 'jobq update: a job key past 2^53', items: [6], request: () => post('/jobq/1/update', `{"key":"1/1/${TWO_POW_64}","state":"finished"}`), expect: refused(), unchanged: jobq },
  { name: "jobq cancel: project 2's job through project 1", request: (c) => post('/jobq/1/cancel', JSON.stringify([{ key: c.seed.otherTenantJob }])), expect: refused(400, 403), unchanged: jobq },
  { name: 'jobq cancel: malformed JSON', request: () => post('/jobq/1/cancel', '[{"key":'), expect: refused(), unchanged: jobq },
  ...[
    ['max_units -1', '{"max_units":-1}'],
    ['max_units "x"', '{"max_units":"x"}'],
    ['spiders that are not a list', '{"spiders":"witness"}'],
    ['malformed JSON', '{"max_units":'],
  ].map(([name, body]) => ({ name: `jobq startjob: ${name}`, request: () => post('/jobq/1/startjob', body), expect: refused(), unchanged: jobq })),
  ...['count=-1', 'count=1.5', 'count=NaN', 'count=99999999999999999999', 'start=-1', 'startts=yesterday', 'endts=1e400', 'state=bogus', 'key=..%2F..%2Fx', 'stop=1/1/-1'].map((q) => ({
    name: `jobq list with ${q}`,
    request: () => get(`/jobq/1/list?${q}`),
    expect: refused(),
  })),
  { name: 'jobq summary of state "bogus"', request: () => get('/jobq/1/summary/bogus'), expect: refused(400, 404) },
  { name: 'jobq summary with count=-5', request: () => get('/jobq/1/summary?count=-5'), expect: refused() },
  { name: 'spider id of a name with NUL, created', items: [9], request: () => get('/ids/1/spider/a%00b?create=1'), expect: refused(), unchanged: jobq },
  { name: 'spider id of a name with "/", created', items: [9], request: () => get('/ids/1/spider/a%2Fb?create=1'), expect: refused(), unchanged: jobq },
  ...[
    ['malformed JSON', '{"a":'],
    ['a JSON array', '[1]'],
    ['a value nested 10,000 levels', deepObject(10_000), [5]],
    ['a value nested 1,000 levels', deepObject(1_000), [5]],
  ].map(([name, body, items]) => ({ name: `POST project settings: ${name as string}`, items: items as number[] | undefined, request: () => post('/projects/1/settings', body as string), expect: refused(), unchanged: settings })),
  { name: 'POST one project setting nested 10,000 levels', items: [5], request: () => post('/projects/1/settings/deep', deepObject(10_000)), expect: refused(), unchanged: settings },
];

const activityCases: HostileCase[] = [
  ...[
    ['a message nested 10,000 levels', `{"event":"x","deep":${deepObject(10_000)}}\n`, [5]],
    ['a message nested 1,000 levels', `{"event":"x","deep":${deepObject(1_000)}}\n`, [5]],
    ['a valid line then a malformed one', '{"event":"x"}\n{"event":\n'],
    ['a line that is not an object', '{"event":"x"}\n[1]\n'],
    ['a message over 1 MiB', JSON.stringify({ event: 'x'.repeat(MIB) })],
    ['bytes that are not UTF-8', withInvalidUtf8('{"event":"', '"}\n')],
  ].map(([name, body, items]) => ({
    name: `POST activity: ${name as string}`,
    items: items as number[] | undefined,
    request: () => post('/activity/1', body as string),
    expect: refused(400, 413),
    unchanged: activity,
  })),
  { name: 'POST activity: gzip that is not gzip', request: () => post('/activity/1', NOT_GZIP, { 'content-encoding': 'gzip' }), expect: refused(), unchanged: activity },
  ...['count=-1', 'count=1.5', 'count=NaN', 'meta=_secret', 'filter=%5B'].map((q) => ({ name: `GET activity with ${q}`, request: () => get(`/activity/1?${q}`), expect: refused() })),
  ...['p=abc', 'p=1&pcount=-1', 'p=-1', `p=${TWO_POW_64}`].map((q) => ({ name: `GET activity of projects with ${q}`, request: () => get(`/activity/projects?${q}`), expect: refused() })),
];

const COLLECTION_BAD_WRITES: [string, string | Buffer, number, number[]?][] = [
  ['a record without _key', jl({ value: 1 }), 400],
  ['a _key that is a number', jl({ _key: 1, value: 1 }), 400],
  ['an empty _key', jl({ _key: '', value: 1 }), 400],
  ['a value of 1e20 (past 2^64 - 1)', '{"_key":"k1","value":1e20}\n', 400],
  ['a value of 2^64', `{"_key":"k1","value":${TWO_POW_64}}\n`, 400, [9]],
  ['a value of -2^64', `{"_key":"k1","value":-${TWO_POW_64}}\n`, 400, [9]],
  ['a value of 1e400 (not finite)', '{"_key":"k1","value":1e400}\n', 400, [9]],
  ['Infinity', '{"_key":"k1","value":Infinity}\n', 400],
  ['NaN', '{"_key":"k1","value":NaN}\n', 400],
  ['a value nested 10,000 levels', `{"_key":"k1","value":${deepObject(10_000)}}\n`, 400, [5]],
  ['a value nested 1,000 levels', `{"_key":"k1","value":${deepObject(1_000)}}\n`, 400, [5]],
  ['a valid record then one over 1 MiB', `{"_key":"k1","value":"new"}\n${JSON.stringify({ _key: 'k2', value: 'x'.repeat(MIB) })}\n`, 413],
  ['a valid record then a malformed one', '{"_key":"k1","value":"new"}\n{"_key":\n', 400],
  ['bytes that are not UTF-8 in a _key', withInvalidUtf8('{"_key":"k', '","value":1}\n'), 400],
  ['a lone surrogate _key', '{"_key":"\\udc00","value":1}\n', 400],
];

const collectionCases: HostileCase[] = [
  ...COLLECTION_BAD_WRITES.map(([name, body, status, items]) => ({ name: `POST collection records: ${name}`, items, request: () => post('/collections/1/s/witness', body), expect: refused(status), unchanged: collections })),
  { name: 'POST collection records: gzip that is not gzip', request: () => post('/collections/1/s/witness', NOT_GZIP, { 'content-encoding': 'gzip' }), expect: refused(), unchanged: collections },
  { name: 'POST one collection record: nested 10,000 levels', items: [5], request: () => post('/collections/1/s/witness/k1', `{"value":${deepObject(10_000)}}`), expect: refused(), unchanged: collections },
  { name: 'POST one collection record: a JSON array', request: () => post('/collections/1/s/witness/k1', '[1]'), expect: refused(), unchanged: collections },
  // One rule for the names the storage API keeps (collections, frontiers, slots): 1 to 255 bytes of UTF-8 (docs/storage-api.md, Limits).
  { name: 'POST collection records to a 256-byte name', request: () => post(`/collections/1/s/${'n'.repeat(256)}`, jl({ _key: 'k', value: 1 })), expect: refused(), unchanged: collections },
  { name: 'POST collection records to a name of 86 three-byte characters', request: () => post(`/collections/1/s/${encodeURIComponent('日'.repeat(86))}`, jl({ _key: 'k', value: 1 })), expect: refused(), unchanged: collections },
  { name: 'POST collection records to a name with an encoded "/"', request: () => post('/collections/1/s/a%2Fb', jl({ _key: 'k', value: 1 })), expect: refused(), unchanged: collections },
  { name: 'POST collection records to a name with NUL', request: () => post('/collections/1/s/a%00b', jl({ _key: 'k', value: 1 })), expect: refused(), unchanged: collections },
  { name: 'POST collection records to type "zz"', request: () => post('/collections/1/zz/witness', jl({ _key: 'k', value: 1 })), expect: refused(404), unchanged: collections },
  { name: 'GET a collection record by a 1,001-character key', request: () => get(`/collections/1/s/witness/${'k'.repeat(1001)}`), expect: refused(400, 404, 414) },
  { name: 'POST deleted keys: a real key then a malformed line', request: () => post('/collections/1/s/witness/deleted', '"k1"\n["k2",\n'), expect: refused(), unchanged: collections },
  { name: 'POST deleted keys: a number', request: () => post('/collections/1/s/witness/deleted', '"k1"\n12\n'), expect: refused(), unchanged: collections },
  { name: 'rename onto itself', request: () => post('/collections/1/rename?name=witness&new_name=witness', ''), expect: refused(), unchanged: collections },
  { name: 'rename without new_name', request: () => post('/collections/1/rename?name=witness', ''), expect: refused(), unchanged: collections },
  { name: 'rename to a name with "/"', request: () => post('/collections/1/rename?name=witness&new_name=a%2Fb', ''), expect: refused(), unchanged: collections },
  { name: 'rename to a name that is not UTF-8 (%FF in the query string)', request: () => post('/collections/1/rename?name=witness&new_name=%FF', ''), expect: refused(), unchanged: collections },
  { name: 'rename with a bad %-escape in the query string', request: () => post('/collections/1/rename?name=witness&new_name=%ZZ', ''), expect: refused(), unchanged: collections },
  { name: 'rename to a 10,000-character name', request: () => post(`/collections/1/rename?name=witness&new_name=${'n'.repeat(10_000)}`, ''), expect: refused(400, 414), unchanged: collections },
  { name: 'rename onto a collection that holds records', request: () => post('/collections/1/rename?name=witness&new_name=witnessv', ''), expect: refused(), unchanged: collections },
  { name: 'delete a collection without a name', request: () => post('/collections/1/delete', ''), expect: refused(), unchanged: collections },
  ...['count=-1', 'count=1.5', 'prefixcount=-1', 'startts=yesterday', 'endts=NaN', 'meta=_secret', 'filter=%5B', 'format=exe'].map((q) => ({
    name: `GET a collection with ${q}`,
    request: () => get(`/collections/1/s/witness?${q}`),
    expect: refused(),
  })),
  { name: 'DELETE collection records with a malformed filter', request: () => ({ ...get('/collections/1/s/witness?filter=%5B'), method: 'DELETE' }), expect: refused(), unchanged: collections },
  {
    name: 'POST a collection record with a __proto__ field',
    request: () => post('/collections/1/s/protos', '{"_key":"p","__proto__":{"polluted":true}}\n'),
    expect: refusedOrSafe('keeps it a plain field', async (_a, c) => {
      const other = (await c.send(get('/collections/1/s/witness/k1'))).body.toString();
      // Accepted safely, it is a collection of its own: removed, so the witness list of collections reads as seeded at the end.
      await c.send(post('/collections/1/delete?name=protos', ''));
      return other.includes('polluted') ? `another record now reads ${other}` : null;
    }),
  },
];

const FRONTIER_BAD_WRITES: [string, string | Buffer, number[]?][] = [
  ['a request without fp', jl({ fp: 'new1' }, { qdata: 1 })],
  ['an empty fp', jl({ fp: '' })],
  ['an fp that is a number', jl({ fp: 1 })],
  ['an fp of 4,097 bytes', jl({ fp: 'f'.repeat(4097) })],
  ['priority 256', jl({ fp: 'new1', p: 256 })],
  ['priority -1', jl({ fp: 'new1', p: -1 })],
  ['priority 1.5', jl({ fp: 'new1', p: 1.5 })],
  ['priority "1"', jl({ fp: 'new1', p: '1' })],
  ['qdata nested 10,000 levels', `{"fp":"new1","qdata":${deepObject(10_000)}}\n`, [5]],
  ['qdata nested 1,000 levels', `{"fp":"new1","qdata":${deepObject(1_000)}}\n`, [5]],
  ['fdata nested 10,000 levels', `{"fp":"new1","fdata":${deepArray(10_000)}}\n`, [5]],
  ['a valid request then a malformed one', '{"fp":"new1"}\n{"fp":\n'],
  ['bytes that are not UTF-8 in an fp', withInvalidUtf8('{"fp":"', '"}\n')],
];

const frontierCases: HostileCase[] = [
  ...FRONTIER_BAD_WRITES.map(([name, body, items]) => ({ name: `POST frontier requests: ${name}`, items, request: () => post('/hcf/1/witness/s/slot1', body), expect: refused(), unchanged: frontier })),
  { name: 'POST frontier requests: a body over 4 MiB', request: () => post('/hcf/1/witness/s/slot1', jl(...Array.from({ length: 5000 }, (_, i) => ({ fp: `big${i}`, qdata: 'q'.repeat(1000) })))), expect: refused(413), unchanged: frontier },
  { name: 'POST frontier requests: gzip that is not gzip', request: () => post('/hcf/1/witness/s/slot1', NOT_GZIP, { 'content-encoding': 'gzip' }), expect: refused(), unchanged: frontier },
  { name: 'POST frontier requests to a 256-byte frontier name', request: () => post(`/hcf/1/${'f'.repeat(256)}/s/slot1`, jl({ fp: 'x' })), expect: refused(), unchanged: frontier },
  { name: 'POST frontier requests to a slot with a control character', request: () => post('/hcf/1/witness/s/slot%01', jl({ fp: 'x' })), expect: refused(), unchanged: frontier },
  { name: 'POST frontier requests to a slot with an encoded "/"', request: () => post('/hcf/1/witness/s/a%2Fb', jl({ fp: 'x' })), expect: refused(), unchanged: frontier },
  { name: 'POST frontier requests to a frontier with NUL', request: () => post('/hcf/1/a%00b/s/slot1', jl({ fp: 'x' })), expect: refused(), unchanged: frontier },
  { name: 'POST deleted batches: a real id then a number', request: (c) => post('/hcf/1/witness/s/slot1/q/deleted', `${JSON.stringify(c.seed.batchId)}\n12\n`), expect: refused(), unchanged: frontier },
  { name: 'POST deleted batches: a real id then a malformed line', request: (c) => post('/hcf/1/witness/s/slot1/q/deleted', `${JSON.stringify(c.seed.batchId)}\n["x",\n`), expect: refused(), unchanged: frontier },
  ...['mincount=-1', 'mincount=10000001', 'mincount=1.5', 'mincount=NaN', 'lease=0', 'lease=-1', 'lease=86401', 'lease=NaN', 'lease=1e400'].map((q) => ({
    name: `GET a frontier queue with ${q}`,
    request: () => get(`/hcf/1/witness/s/slot1/q?${q}`),
    expect: refused(),
    unchanged: frontier,
  })),
  ...['count=-1', 'count=1.5'].map((q) => ({ name: `GET frontier fingerprints with ${q}`, request: () => get(`/hcf/1/witness/s/slot1/f?${q}`), expect: refused() })),
];

export const STORAGE_CASES: HostileCase[] = [
  ...recordWriteCases('items'),
  ...recordWriteCases('logs'),
  ...recordWriteCases('requests'),
  ...recordWriteCases('samples'),
  ...positionCases,
  ...readCases,
  ...pathCases,
  ...authCases,
  ...crossProjectCases,
  ...metadataCases,
  ...jobqCases,
  ...activityCases,
  ...collectionCases,
  ...frontierCases,
];
