import { INestApplication } from '@nestjs/common';
import { globalAgent } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startExtractApp } from '../../apps/extract/extract.app';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { startWorkerApp } from '../../apps/worker/worker.app';
import { ExtractionSite, SITE_ARTICLE, SITE_PRODUCT, startExtractionSite } from '../../bench/extraction-site';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { runScript } from './run-python-check';

const python = process.env.PYTHON_CLIENTS;

/**
 * The official extraction client (`scrapinghub-autoextract` from PyPI, installed by
 * test/compat/python-env.sh) against the extraction API: its sync and asyncio clients and
 * its command line tool; test/compat/autoextract-client.py does the talking.
 */
describe('official extraction client (scrapinghub-autoextract) against the extraction API', () => {
  if (!python) {
    it('(skipped)', () => console.warn('skipped: PYTHON_CLIENTS is not set (test/run-tests.sh installs the Python clients)'));
    return;
  }
  let platform: TestPlatform;
  let site: ExtractionSite;
  let proxy: StartedProxy;
  let app: INestApplication;
  let stopWorker: () => Promise<void>;

  beforeAll(async () => {
    site = await startExtractionSite();
    platform = await startTestPlatform({ PROXY_PORT: '0', EXTRACT_PORT: '0', ALLOW_PRIVATE_TARGETS: 'true', PROXY_THROTTLE_SPACING_MS: '0', WORKER_KINDS: 'extract' });
    proxy = await startProxyApp(platform.core, ['error']);
    const { context } = await startWorkerApp(platform.core, ['error'], proxy.port);
    stopWorker = () => context.close();
    app = await startExtractApp(platform.core, ['error']);
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await stopWorker?.();
    await proxy?.close();
    await platform?.stop();
    await site?.close();
    globalAgent.destroy();
  });

  it('batches in order, query errors and billing, articleBodyRaw, problem types, and the command line tool', async () => {
    const key = await platform.createKey([1], ['extraction']);
    const disabled = await platform.createKey([1]);
    const endpoint = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/v1/extract`;
    const args = [endpoint, key, disabled, site.url, SITE_ARTICLE.headline, SITE_PRODUCT.name, SITE_PRODUCT.price];
    const r = await runScript(python, join(__dirname, 'autoextract-client.py'), args, { ...process.env, PYTHONUNBUFFERED: '1' });
    if (r.code !== 0) console.error(r.output);
    expect(r.output).toContain('all checks passed');
    expect(r.code).toBe(0);
  }, 150_000);
});
