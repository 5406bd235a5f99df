import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { Browser, BrowserContext, CDPSession, LaunchOptions, Page, Protocol } from 'puppeteer-core';
import ConcurrencyImplementation, { JobInstance, WorkerInstance } from 'puppeteer-cluster/dist/concurrency/ConcurrencyImplementation';
import type { TargetPolicy } from '@crawlhub/net';
import { RenderError } from '../../domain/render-error';
import { guardedUrlPatterns, mayRequest } from '../../domain/target-filter';
import { processTreeMemoryBytes } from './process-tree';

export interface KeptPageSettings {
  /** A browser is replaced after this many pages... */
  recyclePages: number;
  /** ...or once its process tree holds more than this (checked every MEMORY_CHECK_PAGES pages). */
  recycleMemoryBytes: number;
  /** What the browser may load (the platform's SSRF rule). */
  targets: TargetPolicy;
  /** Whether the browser goes through a proxy (which takes a key per render). */
  viaProxy: boolean;
}

/** Reading /proc for the whole tree costs a few ms: not after every page. */
const MEMORY_CHECK_PAGES = 20;
/** What a render may leave behind per origin ('all' also clears caches no page can read, at 3x the cost). */
const CLEARED_STORAGE = 'local_storage,indexeddb,websql,file_systems,cache_storage,service_workers,shared_storage,storage_buckets';
/** A browser that does not close within this is killed. */
const CLOSE_GRACE_MS = 5000;

const ignore = () => undefined;
/** A context no render has used yet. */
const UNUSED = Symbol('unused');

/**
 * One worker of the pool: its own browser with one context and one page, kept across
 * renders (a new page or context per render halves the throughput, docs/render.md).
 * Between renders the page goes back to about:blank and the cookies and storage of every
 * origin the render reached are cleared; the browser is replaced after `recyclePages`
 * pages or when its memory passes `recycleMemoryBytes`, and at once if it crashed.
 */
export class KeptBrowser {
  private browser: Browser | null = null;
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  private cdp: CDPSession | null = null;
  private pagesServed = 0;
  private readonly origins = new Set<string>();
  private headers = '{}';
  /** Which requests pause for the SSRF guard (and the proxy's challenge): see pauseRequests. */
  private pausing: 'all' | 'guarded' | null = null;
  /** Whether the context's key was given to the proxy's challenge (Chromium sends it by itself from then on). */
  private keyGiven = false;
  /** Requests whose challenge was answered: a second challenge is refused. */
  private readonly challenged = new Set<string>();
  /** The proxy key the context's renders used (Chromium keeps the first one it authenticated with). */
  private keyOfContext: string | undefined | typeof UNUSED = UNUSED;

  constructor(
    private readonly launch: () => Promise<Browser>,
    private readonly settings: KeptPageSettings,
    private readonly defaultProxyKey: string | undefined,
  ) {}

  get pid(): number | null {
    return this.browser?.process()?.pid ?? null;
  }

  get pages(): number {
    return this.pagesServed;
  }

  async start(): Promise<void> {
    const browser = await this.launch();
    try {
      await this.openContext(browser);
      this.browser = browser;
      this.pagesServed = 0;
    } catch (e) {
      await closeBrowser(browser);
      throw e;
    }
  }

  /** A new browser context of `browser` with the kept page (and a fresh HTTP auth cache: see prepare). */
  private async openContext(browser: Browser): Promise<void> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    // Renders must see the website's answer of now, not one cached by an earlier render.
    await page.setCacheEnabled(false);
    // Every request's origin (redirects and subresources too), for the clearing after the render.
    page.on('request', (request) => {
      const url = request.url();
      if (url.startsWith('http')) this.origins.add(new URL(url).origin);
    });
    page.on('dialog', (dialog) => void dialog.dismiss().catch(ignore));
    // Popups would pile up in the kept context.
    context.on('targetcreated', (target) => void target.page().then((p) => (p && p !== page ? p.close() : undefined)).catch(ignore));
    const cdp = await page.createCDPSession();
    cdp.on('Fetch.requestPaused', (event) => this.guard(cdp, event));
    cdp.on('Fetch.authRequired', (event) => this.answerChallenge(cdp, event));
    this.cdp = cdp;
    this.headers = '{}';
    this.keyOfContext = UNUSED;
    this.keyGiven = false;
    this.pausing = null;
    await this.pauseRequests(this.settings.viaProxy ? 'all' : 'guarded');
    this.context = context;
    this.page = page;
  }

  /**
   * Which requests pause in the browser for a look from here (DevTools Fetch domain): `all`
   * until the proxy's first challenge is answered with the context's key (Chromium only
   * asks about challenges of requests that pause), then only those whose URL may be refused
   * (guardedUrlPatterns); the others no longer cost a round trip each.
   */
  private async pauseRequests(which: 'all' | 'guarded'): Promise<void> {
    if (which === this.pausing) return;
    const patterns = which === 'all' ? ['*'] : guardedUrlPatterns(this.settings.targets);
    await this.cdp!.send('Fetch.enable', { handleAuthRequests: this.settings.viaProxy, patterns: patterns.map((urlPattern) => ({ urlPattern })) });
    this.pausing = which;
  }

  /** The kept page (on a new browser if this one crashed). */
  async livePage(): Promise<Page> {
    if (!this.browser?.connected || !this.page) await this.restart();
    return this.page!;
  }

  /**
   * Sets the kept page up for one render: its extra headers and the key it gives the proxy;
   * answers the page to render on. Chromium answers the proxy's first 407 with a key and
   * then sends that key with every later request of the context, whatever key
   * page.authenticate is given: a render with another key than the context's earlier
   * renders gets a new context (and page), or its traffic would count as the other key's.
   */
  async prepare(options: { headers?: Record<string, string>; proxyKey?: string }): Promise<Page> {
    const key = options.proxyKey ?? this.defaultProxyKey;
    if (this.settings.viaProxy && this.keyOfContext !== UNUSED && this.keyOfContext !== key) await this.replaceContext();
    const page = this.page!;
    const headers = JSON.stringify(options.headers ?? {});
    if (headers !== this.headers) {
      await page.setExtraHTTPHeaders(options.headers ?? {});
      this.headers = headers;
    }
    if (this.keyGiven) await this.pauseRequests('guarded');
    // Cookies again (reset cleared them after the last render): a worker of the last render's
    // page can outlive its document by a little, on its own thread, when the machine is
    // busy, and the answer to a request it sent then sets its cookie after that clearing.
    await this.cdp!.send('Network.clearBrowserCookies');
    this.keyOfContext = key;
    return page;
  }

  private async replaceContext(): Promise<void> {
    const old = this.context;
    await this.openContext(this.browser!);
    await old?.close().catch(ignore);
  }

  /**
   * After a render: back to a clean page, or a new browser when this one is due. Never
   * throws (the cluster would end the process): a browser that cannot start again is
   * left closed, and the next render tries to start one.
   */
  async afterRender(): Promise<void> {
    // The cluster adds an 'error' listener to the page for every job: on a kept page they would pile up.
    this.page?.removeAllListeners('error');
    this.pagesServed += 1;
    try {
      await this.reset();
    } catch {
      return this.restartOrLeaveClosed();
    }
    const due = this.pagesServed >= this.settings.recyclePages || (this.pagesServed % MEMORY_CHECK_PAGES === 0 && this.memoryBytes() > this.settings.recycleMemoryBytes);
    if (due) await this.restartOrLeaveClosed();
  }

  /** A new browser now; if it cannot start, none (livePage tries again, and reports why to its render). */
  async restartOrLeaveClosed(): Promise<void> {
    await this.restart().catch(() => this.close());
  }

  /** Memory of the browser's process tree (browser, zygote, renderers, utilities). */
  memoryBytes(): number {
    const pid = this.pid;
    return pid === null ? 0 : processTreeMemoryBytes(pid);
  }

  async restart(): Promise<void> {
    await this.close();
    await this.start();
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    this.context = null;
    this.page = null;
    this.cdp = null;
    if (browser) await closeBrowser(browser);
  }

  /** The SSRF guard of a paused request: on its way, or failed as blocked (net::ERR_BLOCKED_BY_CLIENT). */
  private guard(cdp: CDPSession, event: Protocol.Fetch.RequestPausedEvent): void {
    const answer = mayRequest(event.request.url, this.settings.targets)
      ? cdp.send('Fetch.continueRequest', { requestId: event.requestId })
      : cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
    void answer.catch(ignore);
  }

  /**
   * The proxy's challenge gets the render's key (the proxy takes an API key as the user
   * name and no password), once per request: a key it refuses leaves its 407 as the answer.
   * A website's challenge is refused: the key is the proxy's, never a website's.
   */
  private answerChallenge(cdp: CDPSession, event: Protocol.Fetch.AuthRequiredEvent): void {
    const key = this.keyOfContext;
    const give = event.authChallenge.source === 'Proxy' && typeof key === 'string' && !this.challenged.has(event.requestId);
    this.challenged.add(event.requestId);
    if (give) this.keyGiven = true;
    const response: Protocol.Fetch.AuthChallengeResponse = give ? { response: 'ProvideCredentials', username: key, password: '' } : { response: 'CancelAuth' };
    void cdp.send('Fetch.continueWithAuth', { requestId: event.requestId, authChallengeResponse: response }).catch(ignore);
  }

  private async reset(): Promise<void> {
    // about:blank first: the page's scripts stop (and its unload handlers have run) before the clearing.
    await this.page!.goto('about:blank');
    const cdp = this.cdp!;
    const origins = [...this.origins];
    this.origins.clear();
    this.challenged.clear();
    // One round trip for all of them: the browser handles them in order, none depends on another's answer.
    await Promise.all([cdp.send('Network.clearBrowserCookies'), ...origins.map((origin) => cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: CLEARED_STORAGE }))]);
  }
}

async function closeBrowser(browser: Browser): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      browser.process()?.kill('SIGKILL');
      resolve();
    }, CLOSE_GRACE_MS);
  });
  await Promise.race([browser.close().catch(ignore), killed]);
  clearTimeout(timer);
}

/** The browsers of one pool (for the render task, statistics and shutdown). */
export class KeptBrowsers {
  readonly all: KeptBrowser[] = [];
  private readonly byPage = new WeakMap<Page, KeptBrowser>();
  /** Stand-ins for the page of a browser that could not start, with the render's failure. */
  private readonly unstarted = new WeakMap<object, RenderError>();
  private readonly logger = new Logger('RenderPool');
  /** Whether the last start of a browser failed (its failure is logged once, not per render). */
  private failing = false;

  /**
   * A browser could not start (no executable at CHROMIUM_PATH, a crash at launch): a
   * stand-in for its page, which the render task answers with `error`. Logged once until
   * a browser starts again.
   */
  standIn(error: RenderError): Page {
    if (!this.failing) this.logger.error(`${error.message}; renders fail with render_error until a browser starts (every render tries again)`);
    this.failing = true;
    const page = new EventEmitter();
    this.unstarted.set(page, error);
    return page as unknown as Page;
  }

  started(): void {
    if (this.failing) this.logger.log('a browser started again: rendering works');
    this.failing = false;
  }

  /** Why the page's browser could not start, or null for a real page. */
  startFailure(page: Page): RenderError | null {
    return this.unstarted.get(page) ?? null;
  }

  register(browser: KeptBrowser, page: Page): void {
    this.byPage.set(page, browser);
  }

  of(page: Page): KeptBrowser {
    const kept = this.byPage.get(page);
    if (!kept) throw new Error('a page that no kept browser owns');
    return kept;
  }
}

/**
 * puppeteer-cluster's concurrency model for kept pages: each cluster worker owns a
 * KeptBrowser, and a job gets that browser's one page (the stock models open a page,
 * context or browser per job and cap near 18 renders/s here).
 *
 * None of its methods may throw: puppeteer-cluster calls them from timers, so a throw
 * (a browser that cannot start: "Unable to launch browser for worker") becomes an
 * unhandled rejection that ends the whole process, and the render request, delivered
 * again after the restart, ends it again. The browser starts with the worker's first
 * job instead; when it cannot, the job gets a stand-in page and its render fails with
 * the cause (KeptBrowsers.standIn), and the next job tries to start a browser again.
 */
export function keptPageConcurrency(settings: KeptPageSettings, browsers: KeptBrowsers, defaultProxyKey: string | undefined) {
  return class KeptPageConcurrency extends ConcurrencyImplementation {
    async init(): Promise<void> {}

    async close(): Promise<void> {
      await Promise.all(browsers.all.map((b) => b.close()));
    }

    async workerInstance(): Promise<WorkerInstance> {
      const options = this.options as LaunchOptions;
      const kept = new KeptBrowser(() => this.puppeteer.launch(options), settings, defaultProxyKey);
      browsers.all.push(kept);
      return {
        jobInstance: async (): Promise<JobInstance> => {
          let page: Page;
          try {
            page = await kept.livePage();
          } catch (e) {
            const cause = new RenderError('browser_error', `the browser could not start (${options.executablePath}): ${e instanceof Error ? e.message : String(e)}`);
            return { resources: { page: browsers.standIn(cause) }, close: async () => undefined };
          }
          browsers.started();
          browsers.register(kept, page);
          return { resources: { page }, close: () => kept.afterRender() };
        },
        close: () => kept.close(),
        repair: () => kept.restartOrLeaveClosed(),
      };
    }
  };
}
