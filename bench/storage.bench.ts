import { Worker } from 'node:worker_threads';
import { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { BENCH_KEY as KEY, httpCall, report, startPlatform } from './bench-support';

const ITEM_BYTES = 450;

/** One ~450-byte item, varied so the JSON is realistic. */
export function item(i: number): string {
  const base = { id: i, url: `http://shop.example/p/${i}`, name: `Product number ${i}`, price: (i % 997) * 1.25, inStock: i % 3 !== 0, tags: ['a', 'b', String(i % 50)], description: '' };
  const text = JSON.stringify(base);
  base.description = 'd'.repeat(Math.max(0, ITEM_BYTES - text.length));
  return JSON.stringify(base);
}

export function batchBody(start: number, n: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(item(start + i));
  return Buffer.from(lines.join('\n') + '\n');
}

/** The load generator runs in a worker thread so the clients' JSON work is not billed to the server's event loop. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const { url, key, clients, batches, bodies } = workerData;
let next = 0; let failed = 0; let firstError = '';
function post(path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url + path, { method: 'POST', agent, headers: { authorization: 'Basic ' + Buffer.from(key + ':').toString('base64'), 'content-length': body.length } }, (res) => {
      let text = ''; res.on('data', (d) => { text += d; }); res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject); req.end(body);
  });
}
async function client(c) {
  for (;;) {
    const b = next++;
    if (b >= batches) return;
    const job = 1 + (b % clients);
    const r = await post('/items/1/1/' + job + '?start=' + Math.floor(b / clients) * 1000, Buffer.from(bodies[b % bodies.length]));
    if (r.status !== 200) { failed++; firstError = firstError || (r.status + ' ' + r.text); }
  }
}
const t0 = process.hrtime.bigint();
Promise.all(Array.from({ length: clients }, (_, c) => client(c))).then(() => {
  parentPort.postMessage({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, failed, firstError });
});
`;

function ingest(url: string, clients: number, batches: number, bodies: Buffer[]): Promise<{ seconds: number; failed: number; firstError: string }> {
  return new Promise((resolve, reject) => {
    const w = new Worker(CLIENT, { eval: true, workerData: { url, key: KEY, clients, batches, bodies: bodies.map((b) => b.toString()) } });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

/** The transport ceiling for reads: a bare Node HTTP server streaming the same bytes. */
async function rawStreamRate(items: number): Promise<number> {
  const chunk = Buffer.from(item(1) + '\n');
  const perChunk = Math.floor(65536 / chunk.length);
  const block = Buffer.concat(Array.from({ length: perChunk }, () => chunk));
  const server = createServer((_req, res) => {
    let sent = 0;
    const pump = () => {
      while (sent < items) {
        sent += perChunk;
        if (!res.write(block)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const t0 = performance.now();
  await httpCall(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, 'GET', {});
  const rate = items / ((performance.now() - t0) / 1000);
  server.close();
  return rate;
}

/** The targets of issue 20 (embedded) and issue 18 (Kafka): ratios to references measured in the same run. */
export const STORAGE_TARGETS = {
  /** Embedded ingest, end to end with read-your-writes, against JSON.parse of the same lines. */
  ingestVsParse: 0.2,
  /** A job's read as JSON lines against a bare Node HTTP server streaming the same bytes. */
  readVsBareStream: 0.5,
  /** Kafka ingest with read-your-writes, items/s. */
  kafkaIngest: 100_000,
  /** Peak RSS of the platform while 5 M items are ingested, MB. */
  memoryMb: 400,
};

/**
 * One line per target: the figure, its reference measured in the same run (or the fixed
 * bound), the ratio, and met or NOT met. `ok` is false when the run itself failed (POSTs
 * refused, a read cut short): then the target is not met whatever the figure.
 */
function verdict(what: string, figure: { value: number; unit: string }, reference: { name: string; value: number; unit: string }, bound: { atLeast?: number; below?: number }, ok = true): void {
  const ratio = figure.value / reference.value;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const met = ok && (bound.atLeast === undefined || ratio >= bound.atLeast) && (bound.below === undefined || ratio < bound.below);
  const target = bound.atLeast !== undefined ? `≥ ${bound.atLeast}x` : `< ${bound.below}x`;
  console.log(`  target ${what}: ${fmt(figure.value)} ${figure.unit} against ${reference.name} ${fmt(reference.value)} ${reference.unit}, ${ratio.toFixed(2)}x (target ${target}): ${met ? 'met' : 'NOT met'}`);
}

export async function storageBench(options: { ingestItems: number; readItems: number; memoryItems: number; lanes: Record<string, Record<string, string>> }): Promise<void> {
  const bodies = Array.from({ length: 8 }, (_, i) => batchBody(i * 1000, 1000));
  // Ceiling: plain JSON.parse of the same lines.
  const lines = bodies.map((b) => b.toString().split('\n').filter(Boolean)).flat();
  let t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let parsed = 0;
  while (performance.now() - t0 < 1000) for (const l of lines) (JSON.parse(l), parsed++);
  const parseRate = parsed / ((performance.now() - t0) / 1000);
  const parseCpu = process.cpuUsage(cpu0);
  const parseCpuUs = (parseCpu.user + parseCpu.system) / parsed;
  console.log(`storage: items of ${bodies[0].length / 1000} bytes, 1000 per POST, 4 concurrent clients; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  report('JSON.parse of the same lines (reference)', parseRate, 'items/s');
  console.log(`  JSON.parse CPU: ${parseCpuUs.toFixed(2)} µs per item`);
  /** The platform's CPU per item beside JSON.parse's: steadier than rates when other work shares the cores. */
  const cpuPerItem = (what: string, cpuMs: number, items: number) =>
    console.log(`  platform CPU, ${what}: ${((cpuMs * 1000) / items).toFixed(2)} µs per item (${((cpuMs * 1000) / items / parseCpuUs).toFixed(1)}x JSON.parse)`);

  for (const [lane, env] of Object.entries(options.lanes)) {
    const kafka = env.EVENT_LOG === 'kafka';
    console.log(`lane ${lane}`);
    const platform = await startPlatform(env);
    try {
      const batches = Math.ceil(options.ingestItems / 1000);
      let cpuAt = platform.cpuMs();
      const r = await ingest(platform.url, 4, batches, bodies);
      const ingestCpu = platform.cpuMs() - cpuAt;
      if (r.failed) console.log(`  ${r.failed} POSTs failed, first: ${r.firstError}`);
      const ingestRate = (batches * 1000) / r.seconds;
      report('ingest, end to end with read-your-writes', ingestRate, 'items/s', undefined, { name: 'JSON.parse of the same lines', value: parseRate });
      cpuPerItem('ingest', ingestCpu, batches * 1000);
      const ingested = { value: ingestRate, unit: 'items/s' };
      if (kafka) verdict('Kafka ingest', ingested, { name: 'the bound', value: STORAGE_TARGETS.kafkaIngest, unit: 'items/s' }, { atLeast: 1 }, !r.failed);
      else verdict('embedded ingest', ingested, { name: 'JSON.parse', value: parseRate, unit: 'items/s' }, { atLeast: STORAGE_TARGETS.ingestVsParse }, !r.failed);

      // Read: one job of readItems items.
      const readBatches = Math.ceil(options.readItems / 1000);
      const w = await ingestOneJob(platform.url, readBatches, bodies);
      if (w.failed) console.log(`  ${w.failed} POSTs failed while preparing the read: ${w.firstError}`);
      t0 = performance.now();
      cpuAt = platform.cpuMs();
      const res = await httpCall(`${platform.url}/items/1/2/1`, 'GET', { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}` });
      const readRate = (readBatches * 1000) / ((performance.now() - t0) / 1000);
      const readCpu = platform.cpuMs() - cpuAt;
      const expectBytes = bodies.reduce((a, b) => a + b.length, 0) * (readBatches / bodies.length);
      const complete = Math.abs(res.bytes - expectBytes) <= expectBytes * 0.01;
      if (!complete) console.log(`  read returned ${res.bytes} bytes, expected about ${expectBytes}`);
      const raw = await rawStreamRate(readBatches * 1000);
      report(`read a ${(readBatches * 1000).toLocaleString('en-US')}-item job as JSON lines`, readRate, 'items/s', undefined, { name: 'bare HTTP stream of the same bytes', value: raw });
      cpuPerItem('read', readCpu, readBatches * 1000);
      if (!kafka) verdict('embedded read', { value: readRate, unit: 'items/s' }, { name: 'a bare HTTP stream', value: raw, unit: 'items/s' }, { atLeast: STORAGE_TARGETS.readVsBareStream }, complete);
    } finally {
      await platform.stop();
    }
  }

  if (options.memoryItems > 0) {
    console.log(`memory: ingest ${options.memoryItems.toLocaleString('en-US')} items on the embedded default`);
    const platform = await startPlatform({});
    try {
      const before = platform.memory().rss;
      const r = await ingest(platform.url, 4, Math.ceil(options.memoryItems / 1000), bodies);
      const { rss, peak } = platform.memory();
      if (r.failed) console.log(`  ${r.failed} POSTs failed, first: ${r.firstError}`);
      report('ingest rate during the memory run', options.memoryItems / r.seconds, 'items/s', undefined, { name: 'JSON.parse of the same lines', value: parseRate });
      console.log(`  platform RSS at start ${before.toFixed(0)} MB, at end ${rss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`);
      verdict('peak RSS while ingesting', { value: peak, unit: 'MB' }, { name: 'the bound', value: STORAGE_TARGETS.memoryMb, unit: 'MB' }, { below: 1 }, !r.failed);
    } finally {
      await platform.stop();
    }
  } else {
    console.log('memory: the 5 M item run is opt-in (BENCH_LARGE=1; about 10 minutes on 2 cores)');
  }
}

async function ingestOneJob(url: string, batches: number, bodies: Buffer[]) {
  // Same load generator, all batches to job 1/2/1 at consecutive positions, one client so order is kept.
  return new Promise<{ seconds: number; failed: number; firstError: string }>((resolve, reject) => {
    const code = CLIENT.replace("const job = 1 + (b % clients);", 'const job = 1;').replace("'/items/1/1/' + job + '?start=' + Math.floor(b / clients) * 1000", "'/items/1/2/1?start=' + b * 1000");
    const w = new Worker(code, { eval: true, workerData: { url, key: KEY, clients: 4, batches, bodies: bodies.map((b) => b.toString()) } });
    w.once('message', resolve);
    w.once('error', reject);
  });
}
