import { Worker } from 'node:worker_threads';
import { BENCH_KEY as KEY, report, startPlatform } from './bench-support';

/**
 * The load generators, in a worker thread so the clients' JSON work is not billed to the
 * server's event loop. The requests are made up inside the worker from a seeded
 * generator: slot s gets `perSlot` requests, about 30% of them repeating a fingerprint
 * the slot was sent before (in the same POST or an earlier one).
 *
 * mode 'enqueue': POST /hcf/1/bench/s/<slot> in POSTs of `perPost` requests, `clients` at
 *   a time; reports the sum of newcount and the number of distinct fingerprints sent.
 * mode 'items': the same bodies POSTed as items (one job per slot): the storage ingest
 *   path on the same bytes, the baseline.
 * mode 'drain': per slot, GET q?mincount=<mincount> then POST q/deleted of the ids read,
 *   until the queue is empty; reports the number of requests drained.
 * mode 'read-items': GET every job written by 'items', the storage read path, the baseline.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, key, clients, slots, perSlot, perPost, mincount, mode } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients * 2 });
const auth = 'Basic ' + Buffer.from(key + ':').toString('base64');
function call(method, path, body) {
  return new Promise((resolve, reject) => {
    const headers = { authorization: auth };
    if (body) headers['content-length'] = body.length;
    const req = http.request(url + path, { method, agent, headers }, (res) => {
      const chunks = []; res.on('data', (d) => chunks.push(d)); res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject); req.end(body);
  });
}
// xorshift32, seeded per slot: the same requests in every mode.
function rng(seed) { let x = seed >>> 0 || 1; return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 4294967296; }; }
function slotPosts(s) {
  const rand = rng(s * 7919 + 13);
  const sent = [];
  const posts = [];
  let lines = [];
  for (let i = 0; i < perSlot; i++) {
    let fp;
    if (sent.length && rand() < 0.3) fp = sent[Math.floor(rand() * sent.length)];
    else { fp = 'https://host-' + s + '.example.com/catalogue/page-' + i + '.html'; sent.push(fp); }
    lines.push(JSON.stringify({ fp, qdata: { depth: i % 7, ref: 'p' + (i % 100) } }));
    if (lines.length === perPost) { posts.push(Buffer.from(lines.join('\\n') + '\\n')); lines = []; }
  }
  if (lines.length) posts.push(Buffer.from(lines.join('\\n') + '\\n'));
  return { posts, distinct: sent.length };
}
async function run() {
  let next = 0; let failed = 0; let firstError = ''; let newcount = 0; let distinct = 0; let drained = 0; let reads = 0;
  const fail = (r) => { failed++; firstError = firstError || (r.status + ' ' + r.body.toString().slice(0, 200)); };
  // Bodies are made before the clock starts.
  const work = [];
  if (mode === 'enqueue' || mode === 'items') {
    for (let s = 0; s < slots; s++) { const { posts, distinct: d } = slotPosts(s); distinct += d; posts.forEach((body, i) => work.push({ s, body, i })); }
    // Interleave slots so concurrent clients hit different slots, as crawlers do.
    work.sort((a, b) => a.i - b.i || a.s - b.s);
  }
  const t0 = process.hrtime.bigint();
  async function client() {
    if (mode === 'enqueue' || mode === 'items') {
      for (;;) {
        const w = work[next++];
        if (!w) return;
        const path = mode === 'enqueue' ? '/hcf/1/bench/s/slot-' + w.s : '/items/1/' + (w.s + 1) + '/1';
        const r = await call('POST', path, w.body);
        if (r.status !== 200) { fail(r); continue; }
        if (mode === 'enqueue') newcount += JSON.parse(r.body.toString()).newcount;
      }
    }
    for (;;) {
      const s = next++;
      if (s >= slots) return;
      if (mode === 'read-items') {
        const r = await call('GET', '/items/1/' + (s + 1) + '/1');
        if (r.status !== 200) { fail(r); continue; }
        let n = 0; for (const b of r.body) if (b === 10) n++;
        drained += n; reads++;
        continue;
      }
      for (;;) {
        const r = await call('GET', '/hcf/1/bench/s/slot-' + s + '/q?mincount=' + mincount);
        reads++;
        if (r.status !== 200) { fail(r); break; }
        const text = r.body.toString();
        if (text === '') break;
        const ids = [];
        for (const line of text.split('\\n')) {
          if (!line) continue;
          const b = JSON.parse(line);
          ids.push(JSON.stringify(b.id));
          drained += b.requests.length;
        }
        const d = await call('POST', '/hcf/1/bench/s/slot-' + s + '/q/deleted', Buffer.from(ids.join('\\n') + '\\n'));
        if (d.status !== 200) { fail(d); break; }
      }
    }
  }
  await Promise.all(Array.from({ length: clients }, client));
  parentPort.postMessage({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, failed, firstError, newcount, distinct, drained, reads });
}
run().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

interface ClientResult {
  seconds: number;
  failed: number;
  firstError: string;
  newcount: number;
  distinct: number;
  drained: number;
  reads: number;
  error?: string;
}

function clients(workerData: Record<string, unknown>): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(CLIENT, { eval: true, workerData: { key: KEY, ...workerData } });
    w.once('message', (m: ClientResult) => (m.error ? reject(new Error(m.error)) : resolve(m)));
    w.once('error', reject);
  });
}

/**
 * `npm run bench:frontier`: on the embedded default, enqueue `requests` requests (30%
 * repeated fingerprints) across `slots` slots through HTTP POSTs of `perPost` requests
 * (default 5,000, the Python writer's batch size; FRONTIER_BENCH_POST overrides it) from
 * `clients` concurrent clients, then drain every slot (GET q with a large mincount, POST
 * q/deleted of what was read). Targets: 100,000 requests/s each way. Baselines of the
 * same run: the same bodies through the storage API's item ingest, and reading them back.
 */
export async function frontierBench(options: { requests: number; slots: number; clients: number; perPost?: number; mincount?: number }): Promise<void> {
  const perSlot = Math.ceil(options.requests / options.slots);
  // The official Python writer (hubstorage Frontier) sends up to 5,000 requests per POST.
  const perPost = options.perPost ?? 5000;
  const mincount = options.mincount ?? 5000;
  const total = perSlot * options.slots;
  console.log(
    `frontier: ${total.toLocaleString('en-US')} requests (about 30% repeated fingerprints) over ${options.slots} slots, ` +
      `${perPost} per POST, ${options.clients} concurrent clients; drain with mincount=${mincount}`,
  );
  const platform = await startPlatform({});
  try {
    const common = { url: platform.url, clients: options.clients, slots: options.slots, perSlot, perPost, mincount };
    const items = await clients({ ...common, mode: 'items' });
    if (items.failed) console.log(`  baseline: ${items.failed} item POSTs failed, first: ${items.firstError}`);
    const itemRate = total / items.seconds;
    const readItems = await clients({ ...common, mode: 'read-items' });
    const readItemRate = readItems.drained / readItems.seconds;

    const enq = await clients({ ...common, mode: 'enqueue' });
    if (enq.failed) console.log(`  ${enq.failed} POSTs failed, first: ${enq.firstError}`);
    report('enqueue (POST /hcf/.../s/<slot>, newcount answered)', total / enq.seconds, 'requests/s', 100_000, { name: 'item ingest of the same bodies', value: itemRate });
    const drain = await clients({ ...common, mode: 'drain' });
    if (drain.failed) console.log(`  ${drain.failed} drain calls failed, first: ${drain.firstError}`);
    report('drain (GET q + POST q/deleted)', drain.drained / drain.seconds, 'requests/s', 100_000, { name: 'reading the same number of items back', value: readItemRate });
    console.log(`  ${drain.reads.toLocaleString('en-US')} queue reads; peak platform RSS ${platform.memory().peak.toFixed(0)} MB`);
    const ok = enq.newcount === enq.distinct && drain.drained === enq.distinct;
    console.log(
      `  check: distinct fingerprints sent ${enq.distinct.toLocaleString('en-US')}, sum of newcount ${enq.newcount.toLocaleString('en-US')}, ` +
        `drained ${drain.drained.toLocaleString('en-US')}: ${ok ? 'ok' : 'MISMATCH'}`,
    );
    if (!ok) process.exitCode = 1;
  } finally {
    await platform.stop();
  }
}
