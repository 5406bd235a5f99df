import { extractArticle, extractProduct } from '@crawlhub/extraction';
import { EXTRACTION_THREAD_LIMITS } from '@crawlhub/extraction-batches';
import { BENCH_AUTH, httpCall, report, startPlatform } from './bench-support';
import { loadDataset } from './extraction-datasets';
import { startExtractionSite } from './extraction-site';
import { freePort, processUsage } from './proxy-support';
import { inThread } from './thread-task';

/**
 * `npm run bench:extraction`, part "the API end to end" (issue 7): batches of the
 * datasets' article and product pages, served by a loopback origin, through the whole path
 * (extraction API -> event log -> extraction worker -> crawlhub's proxy -> origin ->
 * engine -> result events -> API), with a warm fleet. The platform runs as `npm start`
 * does (one process, roles proxy, extract and worker; EVENT_LOG=kafka with KAFKA_BROKERS
 * for the Kafka lane), throttling off. Baseline in the same run: the engine alone on the
 * same pages, on one core, in a thread with the heap of the worker's extraction threads. Two fleets: the worker in the API's process (as
 * `npm start` runs), and one worker process of its own (the fleet scaled out by one
 * process, sharing the log; on two cores the engine then has one to itself). BENCH_EXTRACT_SECONDS (default 10),
 * BENCH_EXTRACT_BATCH (queries per batch, default 10), BENCH_EXTRACT_BATCHES (batches in
 * flight, default 4).
 */
export interface ExtractionApiBenchOptions {
  seconds: number;
  batchSize: number;
  inFlight: number;
}

export function extractionApiBenchOptions(): ExtractionApiBenchOptions {
  const n = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  return { seconds: n('BENCH_EXTRACT_SECONDS', 10), batchSize: n('BENCH_EXTRACT_BATCH', 10), inFlight: n('BENCH_EXTRACT_BATCHES', 4) };
}

export async function extractionApiBench(o: ExtractionApiBenchOptions): Promise<void> {
  const pages = benchPages();
  console.log(`the extraction API end to end: ${pages.length} dataset pages from a loopback origin, batches of ${o.batchSize}, ${o.inFlight} in flight, ${o.seconds} s, event log ${process.env.EVENT_LOG ?? 'sqlite'}`);

  const enginePerSecond = await inThread<number>(__filename, 'engineAlonePerSecond', undefined, EXTRACTION_THREAD_LIMITS);

  const site = await startExtractionSite(new Map(pages.map((p) => [p.id, p.html])));
  let next = 0;
  const batch = () =>
    Buffer.from(JSON.stringify(Array.from({ length: o.batchSize }, () => {
      const p = pages[next++ % pages.length];
      return { url: `${site.url}/page/${p.id}`, pageType: p.pageType, articleBodyRaw: false };
    })));
  try {
    for (const separate of [false, true]) {
      const r = await measureFleet(o, batch, separate);
      const where = separate ? 'in a worker process of its own' : "in the API's process (npm start)";
      console.log(`  worker ${where}: ${Math.round(r.perSecond * o.seconds)} queries in ${o.seconds} s, ${r.failed} failed; CPU per query ${r.cpuMsPerQuery.toFixed(1)} ms (download, extraction, log; all processes)`);
      report(`extraction API end to end, worker ${separate ? 'apart' : 'in-process'}`, r.perSecond, 'queries/s', 50, { name: 'the engine alone on one core', value: enginePerSecond });
    }
  } finally {
    await site.close();
  }
}

/** The datasets' article and product pages, each with the page type it is queried as. */
function benchPages() {
  return [
    ...loadDataset('article-extraction-dev').map((p) => ({ ...p, pageType: 'article' as const })),
    ...loadDataset('product-extraction-dev').map((p) => ({ ...p, pageType: 'product' as const })),
  ];
}

/** The baseline: the engine alone on the same pages (their original URLs), one pass, in the calling thread. */
export function engineAlonePerSecond(): number {
  const pages = benchPages();
  const started = performance.now();
  for (const p of pages) {
    if (p.pageType === 'article') extractArticle(p.html, p.url);
    else extractProduct(p.html, p.url);
  }
  return pages.length / ((performance.now() - started) / 1000);
}

/** Starts the platform (with its worker in its process, or apart: the fleet scaled out), warms it, and measures. */
async function measureFleet(o: ExtractionApiBenchOptions, batch: () => Buffer, separateWorker: boolean) {
  const [proxyPort, extractPort, statsPort] = [await freePort(), await freePort(), await freePort()];
  const platform = await startPlatform({
    APP_ROLE: separateWorker ? 'proxy,extract' : 'proxy,extract,worker',
    WORKER_KINDS: 'extract',
    PROXY_PORT: String(proxyPort),
    EXTRACT_PORT: String(extractPort),
    STATS_PORT: String(statsPort),
    ALLOW_PRIVATE_TARGETS: 'true',
    PROXY_THROTTLE_SPACING_MS: '0',
    PROXY_MAX_CONNS_PER_KEY: '100000',
    LOG_LEVEL: 'error',
  });
  const worker = separateWorker
    ? await startPlatform({ APP_ROLE: 'worker', WORKER_KINDS: 'extract', WORKER_PROXY_URL: `http://127.0.0.1:${proxyPort}/`, ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'error' }, { dataDir: platform.dataDir })
    : null;
  const pids = [platform.pid, ...(worker ? [worker.pid] : [])];
  const cpu = () => pids.reduce((sum, pid) => sum + (processUsage(pid)?.cpuSeconds ?? 0), 0);
  const url = `http://127.0.0.1:${extractPort}/v1/extract`;
  const run = async (seconds: number) => {
    let done = 0;
    let failed = 0;
    const cpuBefore = cpu();
    const t0 = Date.now();
    const end = t0 + seconds * 1000;
    await Promise.all(
      Array.from({ length: o.inFlight }, async () => {
        while (Date.now() < end) {
          const r = await httpCall(url, 'POST', { 'content-type': 'application/json', authorization: BENCH_AUTH }, batch(), true);
          const extracted = r.status === 200 ? (JSON.parse(r.text ?? '[]') as { error?: string }[]).filter((x) => x.error === undefined).length : 0;
          done += extracted;
          failed += o.batchSize - extracted;
        }
      }),
    );
    return { perSecond: done / ((Date.now() - t0) / 1000), failed, cpuMsPerQuery: done ? ((cpu() - cpuBefore) * 1000) / done : 0 };
  };
  try {
    await run(2); // warm-up: connections, JIT, topics, the group's partitions
    return await run(o.seconds);
  } finally {
    await worker?.stop();
    await platform.stop();
  }
}
