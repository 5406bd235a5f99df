import { INestApplication } from '@nestjs/common';
import { globalAgent } from 'node:http';
import { AddressInfo } from 'node:net';
import { keyIdOf, mintProxyToken } from '@crawlhub/access';
import { ACCESS_KEY_REVOKED, ACCESS_KEYS_TOPIC, createEvent } from '@crawlhub/contracts';
import { Core } from '@crawlhub/platform';
import { DEFAULT_VIEWPORT } from '@crawlhub/render';
import { RenderSite, SCRIPT_TEXT, startRenderSite } from '../../bench/render-site';
import { EventWriter } from '@crawlhub/views';
import { startFetchApp } from '../../apps/fetch/fetch.app';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { startWorkerApp } from '../../apps/worker/worker.app';
import { LoopbackSite, startLoopbackSite } from '../support/loopback-site';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { freePort } from '../support/spawn-platform';
import { viaProxy } from '../support/proxy-client';
import { ProxyOrigin, startProxyOrigin } from '../support/proxy-origin';
import { itIf, needs } from '../support/skip';
import { systemStamps } from '../support/stamps';

const EXITS = ['127.0.0.2', '127.0.0.3'];
/** Renders need a browser (test/run-tests.sh installs Debian's chromium-headless-shell). */
const itWithChromium = itIf(needs.chromium);
// A render opens a browser page through the proxy: on a loaded 2-core machine the first one can pass jest's 5 s.
const RENDER_TIMEOUT_MS = 30_000;

describe('fetch API: plain and rendered fetches', () => {
  let platform: TestPlatform;
  let origin: ProxyOrigin;
  let site: LoopbackSite;
  let renderSite: RenderSite;
  let proxy: StartedProxy;
  let fetchApp: INestApplication;
  let stopWorker: () => Promise<void>;
  let fetchUrl: string;
  let key: string;
  const extra: { close(): Promise<unknown> }[] = [];

  /** POST /fetch/v2 as JSON (or a form, given as a string); `auth` null: no credentials. */
  async function fetchApi(params: Record<string, unknown> | string, auth: string | null = key): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
    const form = typeof params === 'string';
    const res = await fetch(fetchUrl, {
      method: 'POST',
      headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json', ...(auth === null ? {} : { authorization: basic(auth) }) },
      body: form ? params : JSON.stringify(params),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
  }

  async function startWorker(core: Core, proxyPort: number): Promise<() => Promise<void>> {
    const { context } = await startWorkerApp(core, ['error'], proxyPort);
    return () => context.close();
  }

  beforeAll(async () => {
    origin = await startProxyOrigin();
    site = await startLoopbackSite();
    renderSite = await startRenderSite();
    platform = await startTestPlatform({
      PROXY_PORT: '0',
      FETCH_PORT: '0',
      ALLOW_PRIVATE_TARGETS: 'true',
      PROXY_EXITS: EXITS.join(','),
      PROXY_STATIC_HOSTS: 'site.test=127.0.0.1',
      PROXY_TIMEOUT_MIN_MS: '1000',
      PROXY_TIMEOUT_MAX_MS: '1500',
      PROXY_BAN_RULES: JSON.stringify([{ status: [503] }]),
      PROXY_BAN_COOLDOWN_MS: '200',
      // Throttling spaces requests to one domain by 12 s per exit: not what these tests are about.
      PROXY_THROTTLE_SPACING_MS: '0',
      FETCH_DEADLINE_MS: '15000',
      WORKER_CONCURRENCY: '8',
    });
    key = await platform.createKey([1], ['browser']);
    proxy = await startProxyApp(platform.core, ['error']);
    stopWorker = await startWorker(platform.core, proxy.port);
    fetchApp = await startFetchApp(platform.core, ['error']);
    fetchUrl = `http://127.0.0.1:${(fetchApp.getHttpServer().address() as AddressInfo).port}/fetch/v2`;
  }, 90_000);

  afterAll(async () => {
    await fetchApp?.close();
    await stopWorker?.();
    for (const c of extra.reverse()) await c.close();
    await proxy?.close();
    await platform?.stop();
    await site?.close();
    await renderSite?.close();
    await origin?.close();
    globalAgent.destroy();
  });

  beforeEach(() => origin.banned.clear());

  it('fetches a static page: 200, the page as plain text, the website\'s headers and status', async () => {
    const r = await fetchApi({ url: `${site.url}/page/2` });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ url: `${site.url}/page/2`, original_status: 200, proxy_status: 'success', crawlera_status: 'success', body_encoding: 'plain' });
    expect(r.json.body).toContain('<title>Page 2</title>');
    expect(r.json.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8' });
    expect(Object.keys(r.json.headers as object)).toContain('X-Crawlera-Slave');
    expect(r.json).not.toHaveProperty('crawlera_error');
  });

  it('routes through the region asked for: a region without exits is the proxy\'s bad_header', async () => {
    const r = await fetchApi({ url: `${site.url}/page/1`, region: 'zz' });
    expect(r.json).toMatchObject({ proxy_status: 'fail', crawlera_error: 'bad_header', original_status: 540 });
    expect(Buffer.from(String(r.json.body)).toString()).toContain('no exit in region zz');
  });

  it('takes the parameters as a form too', async () => {
    const r = await fetchApi(`url=${encodeURIComponent(`${site.url}/page/1`)}&region=auto`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ proxy_status: 'success', original_status: 200 });
    expect(r.json.body).toContain('<title>Page 1</title>');
  });

  it('sends the client\'s method, body, headers and job id through the proxy, but never its key', async () => {
    // A Proxy-Authorization among the headers is dropped: the fetch is the calling key's.
    const r = await fetchApi({ url: `${origin.httpUrl}/whoami`, method: 'PUT', body: 'hello', headers: { 'X-Mine': 'yes', 'Proxy-Authorization': basic('f'.repeat(32)) }, job_id: '1/2/3' });
    expect(r.json.proxy_status).toBe('success');
    const seen = JSON.parse(r.json.body as string) as { method: string; headers: Record<string, string> };
    expect(seen.method).toBe('PUT');
    expect(seen.headers['x-mine']).toBe('yes');
    expect(seen.headers['content-length']).toBe('5');
    expect(Object.keys(seen.headers).filter((h) => h.startsWith('x-proxy') || h.startsWith('proxy-'))).toEqual([]);
    // The echo has no Content-Type: its body is not known to be text, so it comes in base64.
    const echoed = await fetchApi({ url: `${origin.httpUrl}/echo`, method: 'POST', body: 'the body' });
    expect(echoed.json.body_encoding).toBe('base64');
    expect(Buffer.from(echoed.json.body as string, 'base64').toString()).toBe('the body');
    // A job id of a project the key does not see is refused by the proxy (header_auth).
    const foreign = await fetchApi({ url: `${origin.httpUrl}/whoami`, job_id: '2/1/1' });
    expect(foreign.json).toMatchObject({ proxy_status: 'fail', crawlera_error: 'header_auth', original_status: 470 });
  });

  it('answers a 404 of the website as a success with original_status 404', async () => {
    const r = await fetchApi({ url: `${origin.httpUrl}/status/404` });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ original_status: 404, proxy_status: 'success', body: 'status 404' });
  });

  it('answers a refused port as a failure econnrefused, and a slow page as a failure timeout', async () => {
    const refused = await fetchApi({ url: 'http://127.0.0.1:1/' });
    expect(refused.status).toBe(200);
    expect(refused.json).toMatchObject({ proxy_status: 'fail', crawlera_status: 'fail', crawlera_error: 'econnrefused', proxy_error: 'econnrefused', original_status: 502, headers: {}, body: 'Connection refused' });
    const slow = await fetchApi({ url: `${origin.httpUrl}/slow?ms=4000` });
    expect(slow.json).toMatchObject({ proxy_status: 'fail', crawlera_error: 'timeout', original_status: 504 });
  });

  it('answers a binary body in base64 that decodes to the same bytes', async () => {
    const r = await fetchApi({ url: `${origin.httpUrl}/big?bytes=70000&length=1` });
    expect(r.json).toMatchObject({ proxy_status: 'success', body_encoding: 'base64' });
    expect(Buffer.from(r.json.body as string, 'base64')).toEqual(Buffer.alloc(70_000, 120));
  });

  it('refuses responses over 10 MB with a clear failure, with or without Content-Length', async () => {
    for (const url of [`${origin.httpUrl}/big?bytes=${11 * 1024 * 1024}&length=1`, `${origin.httpUrl}/big?bytes=${11 * 1024 * 1024}`]) {
      const r = await fetchApi({ url });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ proxy_status: 'fail', crawlera_error: 'data_error', original_status: 541 });
      expect(r.json.body).toMatch(/too big/);
    }
  });

  it('answers a page banned on every exit with proxy_status ban', async () => {
    EXITS.forEach((e) => origin.banned.add(e));
    const r = await fetchApi({ url: `${origin.httpUrl}/guarded` });
    expect(r.json).toMatchObject({ proxy_status: 'ban', crawlera_status: 'ban', crawlera_error: 'banned', original_status: 503 });
  });

  itWithChromium('renders in a browser: the page script\'s content is in the rendered body only', async () => {
    // Under its .test name: earlier tests leave 127.0.0.1 banned on the exits for a moment.
    const url = `${renderSite.url.replace('127.0.0.1', 'site.test')}/page`;
    const plain = await fetchApi({ url });
    expect(plain.json).toMatchObject({ proxy_status: 'success', original_status: 200 });
    expect(plain.json.body).not.toContain(SCRIPT_TEXT);
    const rendered = await fetchApi({ url, render: true });
    expect(rendered.status).toBe(200);
    expect(rendered.json).toMatchObject({ url, proxy_status: 'success', original_status: 200, body_encoding: 'plain' });
    expect(rendered.json.body).toContain(SCRIPT_TEXT);
    expect(rendered.json.screenshot).toBeUndefined();
    // The browser went through crawlhub's proxy: the page and its script and stylesheet.
    expect(renderSite.hits.filter((h) => h === '/app.js').length).toBeGreaterThanOrEqual(1);
  }, RENDER_TIMEOUT_MS);

  itWithChromium('answers screenshot=true (implies render) with a PNG of the viewport', async () => {
    const r = await fetchApi('url=' + encodeURIComponent(`${renderSite.url}/page`) + '&screenshot=true');
    expect(r.json).toMatchObject({ proxy_status: 'success' });
    expect(r.json.body).toContain(SCRIPT_TEXT);
    const png = Buffer.from(String(r.json.screenshot), 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual(DEFAULT_VIEWPORT);
  }, RENDER_TIMEOUT_MS);

  itWithChromium('answers a render of a refused port with the proxy\'s reason', async () => {
    const refused = await fetchApi({ url: `http://127.0.0.1:${await freePort()}/`, render: true });
    expect(refused.json).toMatchObject({ proxy_status: 'fail', crawlera_error: 'econnrefused', original_status: 502 });
  }, RENDER_TIMEOUT_MS);

  it('refuses bad input with 400 and a code', async () => {
    const cases: [Record<string, unknown> | string, string][] = [
      [{}, 'missing_url'],
      [{ url: 'ftp://site.test/file' }, 'bad_url'],
      [{ url: `${site.url}/`, render: 'maybe' }, 'bad_parameter'],
      ['url=%zz', 'bad_form'],
    ];
    for (const [params, code] of cases) {
      const r = await fetchApi(params);
      expect([r.status, r.json.error]).toEqual([400, code]);
      expect(typeof r.json.message).toBe('string');
    }
    const malformed = await fetch(fetchUrl, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basic(key) }, body: '{"url": ' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: 'bad_json' });
  });

  it('answers 401 without a key, with an unknown key, and with a key without the browser capability', async () => {
    const none = await fetchApi({ url: `${site.url}/` }, null);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await fetchApi({ url: `${site.url}/` }, 'f'.repeat(32))).status).toBe(401);
    const plainKey = await platform.createKey([1]);
    const refused = await fetchApi({ url: `${site.url}/` }, plainKey);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ error: 'unauthorized' });
  });

  it('the proxy takes a proxy token for its key until the token expires or the key is revoked', async () => {
    const secret = platform.core.jobTokenSecret;
    // Another domain than the ban test's (its exits may still be banned for 127.0.0.1).
    const target = `http://site.test:${origin.httpPort}/status/200`;
    const victim = await platform.createKey([1], ['browser']);
    const token = await mintProxyToken(keyIdOf(victim), Date.now() + 60_000, secret);
    expect((await viaProxy(proxy.port, target, { key: token })).status).toBe(200);
    expect((await viaProxy(proxy.port, target, { key: await mintProxyToken(keyIdOf(victim), Date.now() - 1000, secret) })).status).toBe(407);
    expect((await viaProxy(proxy.port, target, { key: await mintProxyToken(keyIdOf(victim), Date.now() + 60_000, 'another secret') })).status).toBe(407);
    const writer = new EventWriter(platform.core.eventLog, platform.core.projections, platform.core.config, platform.core.clock, platform.core.ids);
    await writer.appendAndWait(ACCESS_KEYS_TOPIC, [createEvent({ type: ACCESS_KEY_REVOKED, key: keyIdOf(victim), data: { keyId: keyIdOf(victim) }, actor: { kind: 'system', id: 'test' } }, systemStamps)]);
    // Lookups are cached for 2 s.
    await new Promise((r) => setTimeout(r, 2_100));
    expect((await viaProxy(proxy.port, target, { key: token })).status).toBe(407);
  });

  it('without ALLOW_PRIVATE_TARGETS, a loopback target is a failure domain_forbidden', async () => {
    await stopWorker();
    const guarded = await startProxyApp({ ...platform.core, config: { ...platform.core.config, allowPrivateTargets: false } } as Core, ['error']);
    extra.push(guarded);
    stopWorker = await startWorker(platform.core, guarded.port);
    const hits = site.hits.length;
    const r = await fetchApi({ url: `${site.url}/` });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ proxy_status: 'fail', crawlera_error: 'domain_forbidden', original_status: 523 });
    expect(site.hits.length).toBe(hits);
  }, 30_000);
});
