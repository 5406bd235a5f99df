import { Worker } from 'node:worker_threads';
import { BENCH_KEY as KEY, report, startPlatform } from './bench-support';

const PREFIXES = 100;
const BATCH = 1000;

/** Record i of the bench: ~150 bytes, keyed under one of 100 prefixes (`p07/00001207`). */
export function record(i: number): string {
  const key = `p${String(i % PREFIXES).padStart(2, '0')}/${String(i).padStart(8, '0')}`;
  return JSON.stringify({ _key: key, value: `http://shop.example/p/${i}`, seen: 1_700_000_000_000 + i, status: i % 7 === 0 ? 404 : 200, tags: ['a', String(i % 50)] });
}

/** The load generators run in a worker thread so the clients' work is not billed to the server. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const { url, key, clients, batches, batch, prefixes, mode } = workerData;
const auth = 'Basic ' + Buffer.from(key + ':').toString('base64');
${record.toString().replace('export ', '').replace('PREFIXES', 'prefixes')}
function call(method, path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url + path, { method, agent, headers: { authorization: auth, ...(body ? { 'content-length': body.length } : {}) } }, (res) => {
      let lines = 0; let text = '';
      res.on('data', (d) => { for (let i = d.indexOf(10); i >= 0; i = d.indexOf(10, i + 1)) lines++; if (res.statusCode !== 200) text += d; });
      res.on('end', () => resolve({ status: res.statusCode, lines, text }));
    });
    req.on('error', reject); req.end(body);
  });
}
let next = 0; let failed = 0; let firstError = ''; let records = 0;
async function writer() {
  for (;;) {
    const b = next++;
    if (b >= batches) return;
    const lines = [];
    for (let i = b * batch; i < (b + 1) * batch; i++) lines.push(record(i));
    const r = await call('POST', '/collections/1/s/bench', Buffer.from(lines.join('\\n') + '\\n'));
    if (r.status !== 200) { failed++; firstError = firstError || (r.status + ' ' + r.text); } else records += batch;
  }
}
async function reader() {
  for (;;) {
    const p = next++;
    if (p >= prefixes) return;
    const r = await call('GET', '/collections/1/s/bench?prefix=p' + String(p).padStart(2, '0') + '/&meta=_key');
    if (r.status !== 200) { failed++; firstError = firstError || (r.status + ' ' + r.text); } else records += r.lines;
  }
}
const t0 = process.hrtime.bigint();
Promise.all(Array.from({ length: clients }, () => (mode === 'write' ? writer() : reader()))).then(() => {
  parentPort.postMessage({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, failed, firstError, records });
});
`;

interface Run {
  seconds: number;
  failed: number;
  firstError: string;
  records: number;
}

function run(url: string, mode: 'write' | 'read', clients: number, batches: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const w = new Worker(CLIENT, { eval: true, workerData: { url, key: KEY, clients, batches, batch: BATCH, prefixes: PREFIXES, mode } });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

/**
 * `npm run bench:collections`: on the embedded default, `records` collection records
 * written through HTTP POSTs of 1000 (BENCH_CLIENTS concurrent clients, default 4, each POST
 * answered once its records are readable), then read back by prefix (100 prefix scans).
 * Baseline of the same run: plain JSON.parse of the same lines.
 */
export async function collectionsBench(options: { records: number; clients?: number }): Promise<void> {
  const clients = options.clients ?? 4;
  const lines = Array.from({ length: 20_000 }, (_, i) => record(i));
  const t0 = performance.now();
  let parsed = 0;
  while (performance.now() - t0 < 1000) for (const l of lines) (JSON.parse(l), parsed++);
  const parseRate = parsed / ((performance.now() - t0) / 1000);
  const bytes = lines.reduce((a, l) => a + l.length + 1, 0) / lines.length;
  const batches = Math.ceil(options.records / BATCH);
  console.log(`collections: ${(batches * BATCH).toLocaleString('en-US')} records of ~${Math.round(bytes)} bytes under ${PREFIXES} prefixes, ${BATCH} per POST, ${clients} concurrent clients`);
  report('JSON.parse of the same lines (baseline)', parseRate, 'records/s');
  const baseline = { name: 'JSON.parse baseline', value: parseRate };
  const platform = await startPlatform({});
  try {
    const w = await run(platform.url, 'write', clients, batches);
    if (w.failed) console.log(`  ${w.failed} POSTs failed, first: ${w.firstError}`);
    report('write, end to end with read-your-writes', w.records / w.seconds, 'records/s', 100_000, baseline);
    const r = await run(platform.url, 'read', clients, 0);
    if (r.failed) console.log(`  ${r.failed} scans failed, first: ${r.firstError}`);
    if (r.records !== w.records) console.log(`  read ${r.records} records, expected ${w.records}`);
    report(`read back by prefix (${PREFIXES} scans, ${clients} at a time)`, r.records / r.seconds, 'records/s', 100_000, baseline);
    const { peak } = platform.memory();
    console.log(`  platform peak RSS ${peak.toFixed(0)} MB`);
  } finally {
    await platform.stop();
  }
}
