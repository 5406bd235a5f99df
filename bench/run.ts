import 'reflect-metadata';
import { jobsBench } from './jobs.bench';
import { consoleBench } from './console.bench';
import { storageBench } from './storage.bench';
import { collectionsBench } from './collections.bench';
import { frontierBench } from './frontier.bench';
import { proxyBench, proxyBenchOptions } from './proxy.bench';
import { proxySessionsBench } from './proxy-sessions.bench';
import { renderBench } from './render.bench';
import { fetchBench, fetchBenchOptions } from './fetch.bench';
import { articleExtractionBench } from './extraction.bench';
import { extractionQualityBench } from './extraction-quality.bench';
import { productExtractionBench } from './extraction-product.bench';
import { extractionApiBench, extractionApiBenchOptions } from './extraction-api.bench';
import { idleBench } from './idle.bench';
import { deployBench } from './deploy.bench';

/**
 * `npm run bench [section]`: each capability has a section; figures are printed with
 * their target and a baseline measured in the same run (these machines are noisy).
 * Environment: BENCH_SCALE (default 1) scales item counts; KAFKA_BROKERS adds the
 * Kafka lane; BENCH_LARGE=1 adds the 5 M item memory run of `storage`; BENCH_CLIENTS (default 4) sets the concurrent writers of `collections`;
 * BENCH_RENDER_SECONDS and BENCH_RENDER_SOAK size `fetch` (bench/render.bench.ts);
 * BENCH_IDLE_SECONDS (default 60) is how long `idle` watches a platform doing nothing;
 * BENCH_PIP_CACHE_DIR (default ~/.cache/crawlhub/pip) is the pip cache of `deploy`'s builds.
 * BENCH_CONSOLE_DATA_DIR keeps the data `console` seeds there, and measures it again, unseeded, when it is already there;
 * MONGODB_URI adds its MongoDB views lane (a database of its own, named after the data dir).
 * Words after the sections that are options, not sections: `soak` (proxy: memory soak only),
 * `sessions` (proxy: the session create latency only, bench/proxy-sessions.bench.ts),
 * `renders` (fetch: the rendered fetches and the render pool only, without the plain fetches),
 * `pages` (extraction: each article page's precision and recall, worst first),
 * `memory` (storage: the 5 M item memory run only, without the lanes; BENCH_LARGE not needed),
 * `kafka` (storage: the Kafka lane only, without the embedded one and the memory run).
 */
const OPTIONS = ['soak', 'sessions', 'pages', 'memory', 'kafka', 'renders'];
const SECTIONS: Record<string, () => Promise<void>> = {
  collections: () => collectionsBench({ records: Math.round(1_000_000 * Number(process.env.BENCH_SCALE ?? '1')), clients: Number(process.env.BENCH_CLIENTS ?? '4') }),
  jobs: () => jobsBench({ jobs: Math.round(100_000 * Number(process.env.BENCH_SCALE ?? '1')) }),
  console: () =>
    consoleBench({
      jobs: Math.round(100_000 * Number(process.env.BENCH_SCALE ?? '1')),
      items: Math.round(1_000_000 * Number(process.env.BENCH_SCALE ?? '1')),
      dataDir: process.env.BENCH_CONSOLE_DATA_DIR,
      mongodbUri: process.env.MONGODB_URI,
    }),
  storage: async () => {
    const scale = Number(process.env.BENCH_SCALE ?? '1');
    const memoryOnly = process.argv.includes('memory');
    const kafkaOnly = process.argv.includes('kafka');
    if (kafkaOnly && !process.env.KAFKA_BROKERS) throw new Error('the `kafka` option needs KAFKA_BROKERS');
    const lanes: Record<string, Record<string, string>> = memoryOnly || kafkaOnly ? {} : { 'embedded (sqlite)': { EVENT_LOG: 'sqlite', VIEW_STORE: 'sqlite' } };
    // Topics of their own per run: the broker outlives runs, and a fresh projector would fold every earlier run's events first.
    if (process.env.KAFKA_BROKERS && !memoryOnly) lanes['EVENT_LOG=kafka'] = { EVENT_LOG: 'kafka', EVENT_LOG_NAMESPACE: `bench-${Date.now().toString(36)}` };
    // The 5 M item memory run takes minutes: only with BENCH_LARGE=1 or the `memory` option.
    const memoryItems = (process.env.BENCH_LARGE === '1' && !kafkaOnly) || memoryOnly ? 5_000_000 * scale : 0;
    await storageBench({ ingestItems: 200_000 * scale, readItems: 1_000_000 * scale, memoryItems, lanes });
  },
  frontier: () =>
    frontierBench({ requests: Math.round(1_000_000 * Number(process.env.BENCH_SCALE ?? '1')), slots: 100, clients: 4, perPost: Number(process.env.FRONTIER_BENCH_POST ?? '5000') }),
  proxy: async () => {
    const args = process.argv.slice(2);
    if (!args.includes('sessions')) await proxyBench(proxyBenchOptions(args));
    if (!args.includes('soak')) await proxySessionsBench();
  },
  fetch: async () => {
    await fetchBench(fetchBenchOptions());
    await renderBench({ seconds: Number(process.env.BENCH_RENDER_SECONDS ?? '5'), soakRenders: Number(process.env.BENCH_RENDER_SOAK ?? '2000') });
  },
  extraction: async () => {
    await extractionQualityBench();
    await articleExtractionBench({ perPage: process.argv.includes('pages') });
    await productExtractionBench();
    await extractionApiBench(extractionApiBenchOptions());
  },
  'extraction-quality': () => extractionQualityBench(),
  idle: () => idleBench({ seconds: Number(process.env.BENCH_IDLE_SECONDS ?? '60') }),
  deploy: () => deployBench(),
};

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !OPTIONS.includes(a));
  const names = wanted.length ? wanted : Object.keys(SECTIONS);
  for (const n of names) {
    if (!SECTIONS[n]) {
      console.error(`unknown bench section ${n}; known: ${Object.keys(SECTIONS).join(', ')}`);
      process.exit(2);
    }
    console.log(`\n### bench: ${n}`);
    await SECTIONS[n]();
  }
  process.exit(0);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
