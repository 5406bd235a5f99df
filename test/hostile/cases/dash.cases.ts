import { Ctx, HostileCase, HostileRequest, refused, refusedOrSafe, Who } from '../support/case';
import { deepArray, deepObject, TWO_POW_64 } from '../support/payloads';

/** Dash API (:8001 /api): run.json, jobs list/update/stop/delete, tags, comments, periodic jobs, spiders. Errors are JSON {status, message}. */

type Fields = [string, string][];
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Fields) => fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
const dpost = (target: string, body: Fields | string | Buffer, as?: Who, headers: Record<string, string> = FORM): HostileRequest => ({
  api: 'dash',
  method: 'POST',
  target: `/api${target}`,
  body: Array.isArray(body) ? form(body) : body,
  headers,
  as,
});
const dget = (target: string, as?: Who): HostileRequest => ({ api: 'dash', target: `/api${target}`, as });
const sget = (target: string): HostileRequest => ({ api: 'storage', target });

const jobs = (c: Ctx) => [dget('/jobs/list.json?project=1'), dget('/jobs/list.json?project=3'), sget('/jobq/1/list?state=pending&state=running&state=finished&state=deleted'), sget(`/jobs/${c.seed.runningJob}`)];
const comments = (c: Ctx) => [dget(`/comments/${c.seed.runningJob}`), dget('/comments/1/stats')];
const schedules = () => [dget('/schedules/list.json?project=1')];
const registry = () => [dget('/spiders/commands.json?project=1')];
const scrapySettings = () => [dget('/settings/get.json?project=1'), dget('/settings/get.json?project=1&spider=s')];

const run = (fields: Fields): Fields => [['project', '1'], ['spider', 'hostile'], ...fields];

const RUN_BAD: [string, Fields, number[]?][] = [
  ['no project', [['spider', 'hostile']]],
  ['project -1', [['project', '-1'], ['spider', 'hostile']]],
  ['project 1.5', [['project', '1.5'], ['spider', 'hostile']]],
  ['project 1e3', [['project', '1e3'], ['spider', 'hostile']]],
  ['project 2^64', [['project', TWO_POW_64], ['spider', 'hostile']]],
  ['no spider', [['project', '1']]],
  ['a spider name with "/"', [['project', '1'], ['spider', 'a/b']], [9]],
  ['a spider name with NUL', [['project', '1'], ['spider', 'a\u0000b']], [9]],
  ['a spider name of 10,000 characters', [['project', '1'], ['spider', 's'.repeat(10_000)]], [9]],
  ['priority 2.5', run([['priority', '2.5']])],
  ['priority -1', run([['priority', '-1']])],
  ['priority 5', run([['priority', '5']])],
  ['priority NaN', run([['priority', 'NaN']])],
  ['units 1e0', run([['units', '1e0']]), [9]],
  ['units 0', run([['units', '0']])],
  ['units 7', run([['units', '7']])],
  ['units 1.5', run([['units', '1.5']])],
  ['units NaN', run([['units', 'NaN']])],
  ['malformed job_settings', run([['job_settings', '{"a":']])],
  ['job_settings that is a list', run([['job_settings', '[1]']])],
  ['job_settings nested 10,000 levels', run([['job_settings', deepObject(10_000)]]), [4, 5]],
  ['job_settings nested 1,000 levels', run([['job_settings', deepObject(1_000)]]), [5]],
  ['malformed meta', run([['meta', '{"a":']])],
  ['meta that is a list', run([['meta', '[1]']])],
  ['meta nested 10,000 levels', run([['meta', deepObject(10_000)]]), [5]],
  ['malformed environment', run([['environment', '{"A":']])],
  ['environment nested 10,000 levels', run([['environment', deepObject(10_000)]]), [5]],
];

const runCases: HostileCase[] = [
  ...RUN_BAD.map(([name, fields, items]) => ({ name: `run.json: ${name}`, items, request: () => dpost('/run.json', fields), expect: refused(), unchanged: jobs })),
  { name: 'run.json: a form with a bad %-escape', request: () => dpost('/run.json', 'project=1&spider=%ZZ'), expect: refused(), unchanged: jobs },
  { name: 'run.json: a spider name that is not UTF-8 (%FF%FE)', request: () => dpost('/run.json', 'project=1&spider=%FF%FE'), expect: refused(), unchanged: jobs },
  { name: 'run.json: a malformed JSON body', request: () => dpost('/run.json', '{"project":1,"spider":', 'admin', { 'content-type': 'application/json' }), expect: refused(), unchanged: jobs },
  { name: 'run.json: a JSON body that is a list', request: () => dpost('/run.json', '[{"project":1,"spider":"hostile"}]', 'admin', { 'content-type': 'application/json' }), expect: refused(), unchanged: jobs },
  {
    name: 'run.json: a JSON body with meta nested 10,000 levels',
    items: [5],
    request: () => dpost('/run.json', `{"project":1,"spider":"hostile-json","meta":${deepObject(10_000)}}`, 'admin', { 'content-type': 'application/json' }),
    expect: refused(),
    unchanged: jobs,
  },
  { name: 'run.json: a form of 2 MiB', request: () => dpost('/run.json', run([['big', 'x'.repeat(2 * 1024 * 1024)]])), expect: refused(413), unchanged: jobs },
  { name: 'run.json: Content-Encoding gzip on a body that is not gzip', request: () => dpost('/run.json', form(run([])), 'admin', { ...FORM, 'content-encoding': 'gzip' }), expect: refused(400, 415), unchanged: jobs },
  { name: 'run.json: a multipart body that is not multipart', request: () => dpost('/run.json', 'garbage', 'admin', { 'content-type': 'multipart/form-data; boundary=x' }), expect: refused(400, 415), unchanged: jobs },
  { name: 'run.json: the other tenant schedules in project 1', request: () => dpost('/run.json', run([]), 'p2'), expect: refused(403), unchanged: jobs },
  {
    name: 'run.json: meta setting platform fields',
    items: [7],
    request: () => dpost('/run.json', [['project', '3'], ['spider', 'meta-fields'], ['meta', '{"_key":"9/9/9","project":9,"spider":"evil","auth":"x","scheduled_by":"nobody","pending_time":1}']]),
    expect: refusedOrSafe('keeps the platform fields', async (a, c) => {
      const jobid = (JSON.parse(a.body.toString()) as { jobid: string }).jobid;
      const meta = JSON.parse((await c.send(sget(`/jobs/${jobid}`))).body.toString()) as Record<string, unknown>;
      const wrong = Object.entries({ project: 3, spider: 'meta-fields' }).filter(([k, v]) => meta[k] !== v);
      if (meta._key !== undefined && meta._key !== jobid) wrong.push(['_key', jobid]);
      if (meta.scheduled_by === 'nobody' || meta.auth === 'x' || meta.pending_time === 1) wrong.push(['scheduled_by/auth/pending_time', 'the platform\'s']);
      return wrong.length ? `job ${jobid}'s metadata has ${JSON.stringify(meta)}` : null;
    }),
    unchanged: jobs,
  },
];

const listCases: HostileCase[] = [
  ...['', 'project=abc', 'project=1&count=-1', 'project=1&count=1.5', 'project=1&count=NaN', 'project=1&count=1e400', 'project=1&offset=-1', 'project=1&offset=NaN', 'project=1&state=bogus', 'project=1&job=..%2F..%2Fx'].map((q) => ({
    name: `jobs/list.json with ${q || 'no project'}`,
    request: () => dget(`/jobs/list.json?${q}`),
    expect: refused(),
  })),
  { name: 'jobs/list.jl with count=-1', request: () => dget('/jobs/list.jl?project=1&count=-1'), expect: refused() },
  { name: 'jobs/count.json with state=bogus', request: () => dget('/jobs/count.json?project=1&state=bogus'), expect: refused() },
  { name: 'jobs/list.json of project 1 by the other tenant', request: () => dget('/jobs/list.json?project=1', 'p2'), expect: refused(403) },
  { name: 'spiders/list.json without a project', request: () => dget('/spiders/list.json'), expect: refused() },
  { name: 'spiders/list.json of project 1 by the other tenant', request: () => dget('/spiders/list.json?project=1', 'p2'), expect: refused(403) },
];

const changeCases: HostileCase[] = [
  ...[
    ['update: a job of another project', (c: Ctx) => [['project', '1'], ['job', c.seed.otherTenantJob], ['add_tag', 'x']]],
    ['update: a job key that is not one', () => [['project', '1'], ['job', 'abc'], ['add_tag', 'x']]],
    ['update: a job key past 2^53', () => [['project', '1'], ['job', `1/1/${TWO_POW_64}`], ['add_tag', 'x']]],
    ['update: neither job nor spider', () => [['project', '1'], ['add_tag', 'x']]],
    ['stop: a job key that is not one', () => [['project', '1'], ['job', '1/x/1']]],
    ['stop: a job of another project', (c: Ctx) => [['project', '1'], ['job', c.seed.otherTenantJob]]],
    ['delete: a finished job and a running one (all or nothing)', (c: Ctx) => [['project', '1'], ['job', c.seed.finishedJob], ['job', c.seed.runningJob]]],
  ].map(([name, fields]) => ({
    name: `jobs/${name as string}`,
    request: (c: Ctx) => dpost(`/jobs/${(name as string).split(':')[0]}.json`, (fields as (c: Ctx) => Fields)(c)),
    expect: refused(),
    unchanged: jobs,
  })),
  ...['update', 'stop', 'delete'].map((action) => ({
    name: `jobs/${action}: the other tenant on project 1`,
    request: (c: Ctx) => dpost(`/jobs/${action}.json`, [['project', '1'], ['job', action === 'delete' ? c.seed.finishedJob : c.seed.runningJob], ['add_tag', 'p2']], 'p2'),
    expect: refused(403),
    unchanged: jobs,
  })),
  { name: 'v2 spider of id "abc"', request: () => dget('/v2/projects/1/spiders/abc'), expect: refused(400, 404) },
  { name: 'v2 spider of project 1 by the other tenant', request: () => dget('/v2/projects/1/spiders/1', 'p2'), expect: refused(403) },
  ...[
    ['malformed JSON', '{"add":'],
    ['"add" that is not a list', '{"add":"x"}'],
    ['tags nested 10,000 levels', `{"add":${deepArray(10_000)}}`, [5]],
  ].map(([name, body, items]) => ({
    name: `v2 spider tags: ${name as string}`,
    items: items as number[] | undefined,
    request: () => ({ ...dpost('/v2/projects/1/spiders/1/tags', body as string, 'admin', { 'content-type': 'application/json' }), method: 'PATCH' }),
    expect: refused(),
    unchanged: jobs,
  })),
  { name: 'v2 spider tags by the other tenant', request: () => ({ ...dpost('/v2/projects/1/spiders/1/tags', '{"add":["p2"]}', 'p2', { 'content-type': 'application/json' }), method: 'PATCH' }), expect: refused(403), unchanged: jobs },
];

const commentCases: HostileCase[] = [
  ...[
    ['no text', []],
    ['text of white space only', [['text', ' \t\n ']]],
    ['text of 65,537 characters', [['text', 'x'.repeat(65_537)]]],
  ].map(([name, fields]) => ({ name: `comment: ${name as string}`, request: (c: Ctx) => dpost(`/comments/${c.seed.runningJob}/0`, fields as Fields), expect: refused(), unchanged: comments })),
  { name: 'comment: text that is not UTF-8 (%FF)', request: (c) => dpost(`/comments/${c.seed.runningJob}/0`, 'text=%FF%FE'), expect: refused(), unchanged: comments },
  ...['-1', '1.5', TWO_POW_64, 'x'].map((n) => ({ name: `comment on item ${n}`, request: (c: Ctx) => dpost(`/comments/${c.seed.runningJob}/${n}`, [['text', 'hostile']]), expect: refused(), unchanged: comments })),
  { name: 'comment on project "abc"', request: () => dpost('/comments/abc/1/1/0', [['text', 'hostile']]), expect: refused(), unchanged: comments },
  { name: 'comment by the other tenant', request: (c) => dpost(`/comments/${c.seed.runningJob}/0`, [['text', 'p2']], 'p2'), expect: refused(403), unchanged: comments },
  { name: 'comments read by the other tenant', request: (c) => dget(`/comments/${c.seed.runningJob}`, 'p2'), expect: refused(403) },
  { name: 'comment stats read by the other tenant', request: () => dget('/comments/1/stats', 'p2'), expect: refused(403) },
  { name: 'edit comment "abc"', request: () => ({ ...dpost('/comments/abc', [['text', 'x']]), method: 'PUT' }), expect: refused(), unchanged: comments },
  { name: 'edit comment 2^64', request: () => ({ ...dpost(`/comments/${TWO_POW_64}`, [['text', 'x']]), method: 'PUT' }), expect: refused(400, 404), unchanged: comments },
  { name: 'edit a comment by the other tenant', request: (c) => ({ ...dpost(`/comments/${c.seed.commentId}`, [['text', 'p2']], 'p2'), method: 'PUT' }), expect: refused(403), unchanged: comments },
  { name: 'edit a comment by a key of its project that is not its author', request: (c) => ({ ...dpost(`/comments/${c.seed.commentId}`, [['text', 'p1']], 'p1'), method: 'PUT' }), expect: refused(403), unchanged: comments },
  { name: 'delete a comment by a key that is not its author', request: (c) => ({ ...dget(`/comments/${c.seed.commentId}`, 'p1'), method: 'DELETE' }), expect: refused(403), unchanged: comments },
  { name: 'archive comments by the other tenant', request: (c) => ({ ...dget(`/comments/${c.seed.runningJob}/0`, 'p2'), method: 'DELETE' }), expect: refused(403), unchanged: comments },
];

const SCHEDULE_BAD: [string, Fields, number[]?][] = [
  ['six cron fields', [['project', '1'], ['spider', 's'], ['cron', '* * * * * *']]],
  ['minute 61', [['project', '1'], ['spider', 's'], ['cron', '61 * * * *']]],
  ['a step of 0', [['project', '1'], ['spider', 's'], ['cron', '*/0 * * * *']]],
  ['a range to 10^12', [['project', '1'], ['spider', 's'], ['cron', '0-999999999999 * * * *']]],
  ['a reversed range', [['project', '1'], ['spider', 's'], ['cron', '5-1 * * * *']]],
  ['a step past 2^64', [['project', '1'], ['spider', 's'], ['cron', `*/${TWO_POW_64} * * * *`]]],
  ['no cron', [['project', '1'], ['spider', 's']]],
  ['priority 9', [['project', '1'], ['spider', 's'], ['cron', '0 0 1 1 *'], ['priority', '9']]],
  ['units 0', [['project', '1'], ['spider', 's'], ['cron', '0 0 1 1 *'], ['units', '0']]],
  ['enabled=maybe', [['project', '1'], ['spider', 's'], ['cron', '0 0 1 1 *'], ['enabled', 'maybe']]],
  ['a spider name with "/"', [['project', '1'], ['spider', 'a/b'], ['cron', '0 0 1 1 *']], [9]],
];

const scheduleCases: HostileCase[] = [
  ...SCHEDULE_BAD.map(([name, fields, items]) => ({
    name: `schedules/add: ${name}`,
    items,
    request: (c: Ctx) => dpost('/schedules/add.json', fields.map(([k, v]) => [k, v === '__SCHEDULE__' ? c.seed.scheduleId : v] as [string, string])),
    expect: refused(400, 404),
    unchanged: schedules,
  })),
  { name: 'schedules/add by the other tenant', request: () => dpost('/schedules/add.json', [['project', '1'], ['spider', 's'], ['cron', '0 0 1 1 *']], 'p2'), expect: refused(403), unchanged: schedules },
  { name: 'schedules/delete by the other tenant', request: (c) => dpost('/schedules/delete.json', [['project', '1'], ['id', c.seed.scheduleId]], 'p2'), expect: refused(403), unchanged: schedules },
  { name: "schedules/delete by the other tenant in its own project, of project 1's schedule by id", request: (c) => dpost('/schedules/delete.json', [['project', '2'], ['id', c.seed.scheduleId]], 'p2'), expect: refused(400, 403, 404), unchanged: schedules },
  { name: 'schedules/delete of an unknown id', request: () => dpost('/schedules/delete.json', [['project', '1'], ['id', 'no-such-schedule']]), expect: refused(404), unchanged: schedules },
  { name: 'schedules/delete without an id', request: () => dpost('/schedules/delete.json', [['project', '1']]), expect: refused(), unchanged: schedules },
  { name: 'schedules/list by the other tenant', request: () => dget('/schedules/list.json?project=1', 'p2'), expect: refused(403) },
];

const REGISTER_BAD: [string, Fields, number[]?][] = [
  ['malformed command', [['project', '1'], ['spider', 's'], ['command', '["node",']]],
  ['a command that is not a list', [['project', '1'], ['spider', 's'], ['command', '"node"']]],
  ['an empty command', [['project', '1'], ['spider', 's'], ['command', '[]']]],
  ['a command nested 10,000 levels', [['project', '1'], ['spider', 's'], ['command', deepArray(10_000)]], [5]],
  ['a command with NUL', [['project', '1'], ['spider', 's'], ['command', '["node","a\\u0000b"]']]],
  ['a command of 257 arguments', [['project', '1'], ['spider', 's'], ['command', JSON.stringify(Array(257).fill('a'))]]],
  ['a relative cwd', [['project', '1'], ['spider', 's'], ['command', '["node"]'], ['cwd', '../../etc']]],
  ['a bad env name', [['project', '1'], ['spider', 's'], ['command', '["node"]'], ['env', '{"A-B":"1"}']]],
  ['an env value with NUL', [['project', '1'], ['spider', 's'], ['command', '["node"]'], ['env', '{"A":"a\\u0000b"}']]],
  ['env nested 10,000 levels', [['project', '1'], ['spider', 's'], ['command', '["node"]'], ['env', deepObject(10_000)]], [5]],
  ['a spider name with "/"', [['project', '1'], ['spider', '../x'], ['command', '["node"]']], [9]],
  ['a spider name of 10,000 characters', [['project', '1'], ['spider', 's'.repeat(10_000)], ['command', '["node"]']], [9]],
];

const registryCases: HostileCase[] = [
  ...REGISTER_BAD.map(([name, fields, items]) => ({ name: `spiders/register: ${name}`, items, request: () => dpost('/spiders/register.json', fields), expect: refused(), unchanged: registry })),
  { name: 'spiders/register by a project key (not admin)', request: () => dpost('/spiders/register.json', [['project', '1'], ['spider', 's'], ['command', '["node"]']], 'p1'), expect: refused(403), unchanged: registry },
  { name: 'spiders/unregister by a project key (not admin)', request: () => dpost('/spiders/unregister.json', [['project', '1'], ['spider', 's']], 'p1'), expect: refused(403), unchanged: registry },
  { name: 'spiders/commands.json by the other tenant', request: () => dget('/spiders/commands.json?project=1', 'p2'), expect: refused(403) },
];

const SETTINGS_BAD: [string, Fields, number[]?][] = [
  ['no settings', [['project', '1']]],
  ['malformed settings', [['project', '1'], ['settings', '{"A":']]],
  ['settings that are a list', [['project', '1'], ['settings', '[1]']]],
  ['an empty setting name', [['project', '1'], ['settings', '{"": 1}']]],
  ['settings nested 10,000 levels', [['project', '1'], ['settings', deepObject(10_000)]], [5]],
  ['a spider name with "/"', [['project', '1'], ['spider', '../x'], ['settings', '{"A": 1}']], [9]],
  ['a spider name of 10,000 characters', [['project', '1'], ['spider', 's'.repeat(10_000)], ['settings', '{"A": 1}']], [9]],
  ['project -1', [['project', '-1'], ['settings', '{"A": 1}']]],
];

const scrapySettingsCases: HostileCase[] = [
  ...SETTINGS_BAD.map(([name, fields, items]) => ({ name: `settings/set: ${name}`, items, request: () => dpost('/settings/set.json', fields), expect: refused(400), unchanged: scrapySettings })),
  { name: 'settings/set by the other tenant', request: () => dpost('/settings/set.json', [['project', '1'], ['spider', 's'], ['settings', '{"A": 1}']], 'p2'), expect: refused(403), unchanged: scrapySettings },
  { name: 'settings/get by the other tenant', request: () => dget('/settings/get.json?project=1', 'p2'), expect: refused(403) },
];

const routeCases: HostileCase[] = [
  { name: 'an unknown route', request: () => dget('/nope.json'), expect: refused(404) },
  { name: 'run.json through ../', request: () => ({ ...dpost('/../api/run.json', run([])), target: '/api/jobs/../run.json' }), expect: refused(404), unchanged: jobs },
  { name: 'a route with raw UTF-8 and NUL', request: () => dget('/jobs/list.json%00日本?project=1'), expect: refused(400, 404) },
  { name: 'jobs/list.json without a key', request: () => dget('/jobs/list.json?project=1', 'none'), expect: refused(401) },
  { name: 'jobs/list.json with an unknown key', request: () => dget('/jobs/list.json?project=1', { rawAuthorization: 'Basic eDo=' }), expect: refused(401) },
];

export const DASH_CASES: HostileCase[] = [...runCases, ...listCases, ...changeCases, ...commentCases, ...scheduleCases, ...registryCases, ...scrapySettingsCases, ...routeCases];
