import { OnApplicationShutdown } from '@nestjs/common';
import type { Page } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';
import { Cluster } from 'puppeteer-cluster';
import { CrawlhubConfig, PRIVATE_TARGETS_REFUSED, RenderConfig } from '@crawlhub/config';
import { TargetPolicy } from '@crawlhub/net';
import { RenderError } from '../../domain/render-error';
import { mayRequest } from '../../domain/target-filter';
import { Renderer, RenderRequest, RenderResult } from '../../ports/renderer.port';
import { KeptBrowsers, keptPageConcurrency } from './kept-page-concurrency';
import { renderPool } from '@crawlhub/ops';

export interface RenderPoolOptions extends RenderConfig {
  /** `http://[key:]@host:port`; null: the browsers connect directly. */
  proxyUrl: string | null;
  /** What the browser may load (the platform's SSRF rule). */
  targets: TargetPolicy;
  viewport?: { width: number; height: number };
}

/** The pool's options from the config; the browsers go through `proxyUrl` (the worker's proxy). */
export function renderPoolOptionsOf(config: CrawlhubConfig, proxyUrl: string | null): RenderPoolOptions {
  return { ...config.render, proxyUrl, targets: TargetPolicy.of(config) };
}

/** What a render task hands back to the cluster: it never throws, or the cluster would log every failed render. */
type RenderOutcome = { ok: true; result: RenderResult } | { ok: false; error: RenderError };

/** The viewport of every page, and so the size of screenshots. */
export const DEFAULT_VIEWPORT = { width: 1280, height: 800 };
/** Upper bound of a render's own timeout; the cluster's job timeout is a backstop above it. */
const MAX_TIMEOUT_MS = 600_000;

/** Flags measured on this platform (/work/shared/PITFALLS.md "Node 20 floor", "Headless rendering"). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // A worker renders one page at a time: a renderer process per site (and a process swap
  // at every cross-site navigation, about:blank included) only costs time here (docs/render.md).
  '--disable-site-isolation-trials',
  '--disable-features=IsolateOrigins,site-per-process,ProactivelySwapBrowsingInstance,RenderDocument',
];

/** Launch arguments that send all of a browser's traffic through `proxyUrl` (loopback included: Chromium bypasses it by default). */
function proxyArgs(proxyUrl: string | null): string[] {
  if (proxyUrl === null) return [];
  return [`--proxy-server=${new URL(proxyUrl).host}`, '--proxy-bypass-list=<-loopback>'];
}

function failureOf(error: unknown, url: string, timeoutMs: number): RenderError {
  if (error instanceof RenderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === 'TimeoutError') return new RenderError('timeout', `render of ${url} took longer than ${timeoutMs} ms`);
  if (message.includes('net::ERR_BLOCKED_BY_CLIENT')) return new RenderError('blocked_target', `${url} led to a private, loopback or link-local address: ${PRIVATE_TARGETS_REFUSED}`);
  const net = /net::ERR_[A-Z_]+/.exec(message);
  if (net) return new RenderError('net_error', net[0]);
  return new RenderError('browser_error', message);
}

/**
 * Renders pages on puppeteer-cluster with kept pages (KeptPageConcurrency): at most
 * RENDER_CONCURRENCY at once, at most RENDER_QUEUE_LIMIT waiting (more fail at once with
 * queue_full), each within its timeout from when it starts on a page.
 */
export class RenderPool implements Renderer, OnApplicationShutdown {
  /** Renders running or waiting for a page. */
  private admitted = 0;
  private closed = false;
  /** Rejects renders that are still waiting when the pool closes. */
  private readonly abandon = new Set<(e: RenderError) => void>();

  /** Takes the pool out of /metrics (on close). */
  private readonly unlistMetrics: () => void;

  private constructor(
    private readonly cluster: Cluster<RenderRequest, RenderOutcome>,
    private readonly browsers: KeptBrowsers,
    private readonly options: RenderPoolOptions,
  ) {
    this.unlistMetrics = renderPool.add(() => {
      const running = Math.min(this.admitted, this.options.concurrency);
      return [
        { labels: { measure: 'browsers' }, value: this.browsers.all.length },
        { labels: { measure: 'running' }, value: running },
        { labels: { measure: 'queued' }, value: this.admitted - running },
        { labels: { measure: 'browser_memory_bytes' }, value: this.browsersMemoryBytes() },
      ];
    });
  }

  static async start(options: RenderPoolOptions): Promise<RenderPool> {
    const browsers = new KeptBrowsers();
    const proxyUser = options.proxyUrl === null ? '' : decodeURIComponent(new URL(options.proxyUrl).username);
    const concurrency = keptPageConcurrency(
      { recyclePages: options.recyclePages, recycleMemoryBytes: options.recycleRssMb * 1024 * 1024, targets: options.targets, viaProxy: options.proxyUrl !== null },
      browsers,
      proxyUser || undefined,
    );
    const cluster: Cluster<RenderRequest, RenderOutcome> = await Cluster.launch({
      concurrency,
      maxConcurrency: options.concurrency,
      puppeteer,
      timeout: MAX_TIMEOUT_MS + 60_000,
      puppeteerOptions: {
        executablePath: options.chromiumPath,
        headless: 'shell',
        pipe: true,
        args: [...CHROMIUM_FLAGS, ...proxyArgs(options.proxyUrl)],
        // Through the proxy every HTTPS connection ends at crawlhub's proxy (its CA), which
        // checks the website's certificate itself; Chromium's SPKI allow-list cannot be used
        // because the proxy presents leaves without their CA (docs/render.md, Decisions).
        acceptInsecureCerts: options.proxyUrl !== null,
        defaultViewport: options.viewport ?? DEFAULT_VIEWPORT,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      },
    });
    return new RenderPool(cluster, browsers, options);
  }

  async render(request: RenderRequest): Promise<RenderResult> {
    const { url } = request;
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new RenderError('bad_url', `${url} is not an http(s) URL`);
    if (!mayRequest(url, this.options.targets)) throw new RenderError('blocked_target', `${url} is a private, loopback or link-local address: ${PRIVATE_TARGETS_REFUSED}`);
    if (this.closed) throw new RenderError('browser_error', 'the render pool is closed');
    if (this.admitted >= this.options.concurrency + this.options.queueLimit) {
      throw new RenderError('queue_full', `${this.options.queueLimit} renders are already waiting (RENDER_QUEUE_LIMIT)`);
    }
    this.admitted += 1;
    let abandon!: (e: RenderError) => void;
    const abandoned = new Promise<never>((_, reject) => (abandon = reject));
    this.abandon.add(abandon);
    try {
      const outcome = await Promise.race([this.cluster.execute(request, ({ page }) => this.renderOn(page, request)), abandoned]);
      if (outcome.ok) return outcome.result;
      throw outcome.error;
    } catch (e) {
      throw failureOf(e, url, request.timeoutMs ?? this.options.timeoutMs);
    } finally {
      this.abandon.delete(abandon);
      this.admitted -= 1;
    }
  }

  /** The pool's browsers: pid (changes when one is recycled) and pages served by it. */
  browserStats(): { pid: number | null; pages: number }[] {
    return this.browsers.all.map((b) => ({ pid: b.pid, pages: b.pages }));
  }

  /** Memory (PSS) of all the pool's browser process trees. */
  browsersMemoryBytes(): number {
    return this.browsers.all.reduce((sum, b) => sum + b.memoryBytes(), 0);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unlistMetrics();
    for (const abandon of this.abandon) abandon(new RenderError('browser_error', 'the render pool closed'));
    await this.cluster.close();
  }

  /** Closed in the last phase of a shutdown: the workers that render stop taking requests before it (beforeApplicationShutdown). */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** One render on a kept page; its time runs from here, not from when it was queued. */
  private async renderOn(page: Page, request: RenderRequest): Promise<RenderOutcome> {
    const unstarted = this.browsers.startFailure(page);
    if (unstarted) return { ok: false, error: unstarted };
    const timeoutMs = Math.min(request.timeoutMs ?? this.options.timeoutMs, MAX_TIMEOUT_MS);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderError('timeout', `render of ${request.url} took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return { ok: true, result: await Promise.race([this.load(page, request, timeoutMs), expired]) };
    } catch (e) {
      return { ok: false, error: failureOf(e, request.url, timeoutMs) };
    } finally {
      clearTimeout(timer);
    }
  }

  private async load(jobPage: Page, request: RenderRequest, timeoutMs: number): Promise<RenderResult> {
    // The page to render on: the job's, or a new one when the render's proxy key needs a new context.
    const page = await this.browsers.of(jobPage).prepare(request);
    const response = await page.goto(request.url, { waitUntil: 'load', timeout: timeoutMs });
    if (!response) throw new RenderError('browser_error', `no response for ${request.url}`);
    const html = await contentOf(page);
    const screenshot = request.screenshot ? Buffer.from(await page.screenshot({ type: 'png' })) : undefined;
    return { status: response.status(), headers: response.headers(), html, ...(screenshot ? { screenshot } : {}), finalUrl: page.url() };
  }
}

/** How often the page's HTML is read again when a navigation replaced its document during the read. */
const CONTENT_READS = 5;
const CONTENT_REREAD_MS = 50;

/**
 * The page's HTML. A page may navigate again right after its load (a script's redirect, a
 * consent wall's reload): a read during that navigation finds its document gone, so it is
 * read again, shortly after, from whichever document the page holds then. The render's own
 * timeout bounds the whole.
 */
async function contentOf(page: Page): Promise<string> {
  for (let read = 1; ; read++) {
    try {
      return await page.content();
    } catch (e) {
      if (read >= CONTENT_READS || !(e instanceof Error) || !/Execution context was destroyed|Cannot find context/.test(e.message)) throw e;
      await new Promise((r) => setTimeout(r, CONTENT_REREAD_MS));
    }
  }
}
