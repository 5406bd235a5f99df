import puppeteer from 'puppeteer-core';
import { existsSync } from 'node:fs';
import { loadConfig } from '@crawlhub/config';
import { TargetPolicy } from '@crawlhub/net';
import { CHROMIUM_FLAGS, guardedUrlPatterns, RenderPool, RenderPoolOptions } from '@crawlhub/render';
import { report } from './bench-support';
import { SCRIPT_TEXT, startRenderSite } from './render-site';

/**
 * `npm run bench:fetch` (issue 6, render part): renders/s of the render pool on a loopback
 * page with a stylesheet and a script (bench/render-site.ts `/page`), direct (no proxy),
 * at concurrency 1, 2 and 4 (twice as many renders in flight as workers, so none idles),
 * each for BENCH_RENDER_SECONDS (default 5) after a warm-up; the baseline of the same run
 * is raw puppeteer-core: one browser, one kept page, `page.goto` in a loop, no pool, no
 * interception, no reset, and the same with the isolation work the pool does per render (its Fetch-domain guard patterns, about:blank, the clearing)
 * (so the pool's own cost and the cost of isolating renders show apart). Then BENCH_RENDER_SOAK (default 2000) renders at concurrency 2
 * with the default recycling, printing the worker's RSS and heap and the browsers' memory
 * (PSS of their process trees) at start and end. Target: ≥ 20 renders/s on the two cores.
 */
export async function renderBench(o: { seconds: number; soakRenders: number }): Promise<void> {
  const config = loadConfig({ CHROMIUM_PATH: process.env.CHROMIUM_PATH }).render;
  if (!existsSync(config.chromiumPath)) {
    console.log(`render: skipped (${config.chromiumPath} is missing: apt-get install chromium-headless-shell, or set CHROMIUM_PATH)`);
    return;
  }
  const site = await startRenderSite();
  const pageUrl = `${site.url}/page`;
  const options: RenderPoolOptions = { ...config, proxyUrl: null, targets: new TargetPolicy({ allowPrivate: true, allowed: [] }), queueLimit: 1000 };
  try {
    const baseline = await rawGotoRate(config.chromiumPath, pageUrl, o.seconds, false);
    report('baseline: raw page.goto on one kept page, concurrency 1', baseline, 'renders/s');
    const isolated = await rawGotoRate(config.chromiumPath, pageUrl, o.seconds, true);
    report('baseline + the isolation work of a render (guard patterns, about:blank, clearing)', isolated, 'renders/s', undefined, { name: 'raw page.goto', value: baseline });
    let best = 0;
    const rates: number[] = [];
    for (const concurrency of [1, 2, 4]) {
      const pool = await RenderPool.start({ ...options, concurrency });
      try {
        const rate = await poolRate(pool, pageUrl, concurrency * 2, o.seconds);
        best = Math.max(best, rate);
        report(`render pool, concurrency ${concurrency}`, rate, 'renders/s', 20, { name: concurrency === 1 ? 'raw page.goto' : 'the pool at concurrency 1', value: concurrency === 1 ? baseline : rates[0] });
        if (concurrency === 1) report('render pool, concurrency 1, against the isolated baseline', rate, 'renders/s', undefined, { name: 'isolated page.goto', value: isolated });
        rates.push(rate);
      } finally {
        await pool.close();
      }
    }
    console.log(`  best pool rate ${best.toFixed(1)} renders/s: target ≥ 20 ${best >= 20 ? 'met' : 'NOT met'}`);
    await soak({ ...options, concurrency: 2 }, pageUrl, o.soakRenders);
  } finally {
    await site.close();
  }
}

/**
 * Renders/s of `page.goto` on one kept page of a bare browser (the pool's flags, no pool);
 * with `isolated`, also the pool's per-render isolation work (the guard's patterns, then
 * about:blank and clearing cookies and storage), so the pool's own cost shows apart.
 */
export async function rawGotoRate(chromiumPath: string, url: string, seconds: number, isolated: boolean): Promise<number> {
  const browser = await puppeteer.launch({ executablePath: chromiumPath, headless: 'shell', pipe: true, args: CHROMIUM_FLAGS });
  try {
    const page = await (await browser.createBrowserContext()).newPage();
    const cdp = await page.createCDPSession();
    await page.setCacheEnabled(false);
    if (isolated) {
      // The pool's guard: only the requests whose URL may be refused pause (none here: private targets allowed).
      cdp.on('Fetch.requestPaused', (event) => void cdp.send('Fetch.continueRequest', { requestId: event.requestId }));
      await cdp.send('Fetch.enable', { patterns: guardedUrlPatterns(new TargetPolicy({ allowPrivate: true, allowed: [] })).map((urlPattern) => ({ urlPattern })) });
    }
    const goto = async () => {
      await page.goto(url, { waitUntil: 'load' });
      if (!(await page.content()).includes(SCRIPT_TEXT)) throw new Error('the page script did not run');
      if (!isolated) return;
      await page.goto('about:blank');
      await Promise.all([
        cdp.send('Network.clearBrowserCookies'),
        cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'local_storage,indexeddb,websql,file_systems,cache_storage,service_workers,shared_storage,storage_buckets' }),
      ]);
    };
    for (let i = 0; i < 20; i += 1) await goto();
    const started = Date.now();
    let done = 0;
    while (Date.now() - started < seconds * 1000) {
      await goto();
      done += 1;
    }
    return done / ((Date.now() - started) / 1000);
  } finally {
    await browser.close();
  }
}

/** Renders/s of the pool with `inFlight` renders kept in flight for `seconds` (after a warm-up). */
async function poolRate(pool: RenderPool, url: string, inFlight: number, seconds: number): Promise<number> {
  const one = async () => {
    const r = await pool.render({ url });
    if (!r.html.includes(SCRIPT_TEXT)) throw new Error('the page script did not run');
  };
  await Promise.all(Array.from({ length: inFlight * 5 }, one));
  const started = Date.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (Date.now() - started < seconds * 1000) {
        await one();
        done += 1;
      }
    }),
  );
  return done / ((Date.now() - started) / 1000);
}

async function soak(options: RenderPoolOptions, url: string, renders: number): Promise<void> {
  const pool = await RenderPool.start(options);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const memory = () => `worker RSS ${mb(process.memoryUsage().rss)} (heap ${mb(process.memoryUsage().heapUsed)}), browsers PSS ${mb(pool.browsersMemoryBytes())}`;
  try {
    await Promise.all(Array.from({ length: 40 }, () => pool.render({ url })));
    console.log(`  soak start (after 40 warm-up renders): ${memory()}`);
    const started = Date.now();
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: options.concurrency * 2 }, async () => {
        while (next < renders) {
          next += 1;
          await pool.render({ url }).catch(() => (failed += 1));
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    console.log(`  soak end (${renders} renders in ${seconds.toFixed(1)} s, ${(renders / seconds).toFixed(1)}/s, ${failed} failed, browsers recycled every ${options.recyclePages} pages): ${memory()}`);
  } finally {
    await pool.close();
  }
}
