import { join } from 'node:path';
import { SITE_ARTICLE, SITE_PRODUCT } from '../../bench/extraction-site';
import { ExtractionStack, startExtractionStack } from '../support/extraction-stack';
import { describeIf, needs } from '../support/skip';
import { runScript } from './run-python-check';

const python = process.env.PYTHON_CLIENTS ?? '';

/**
 * The official extraction client (`scrapinghub-autoextract` from PyPI, installed by
 * test/compat/python-env.sh) against the extraction API: its sync and asyncio clients and
 * its command line tool; test/compat/autoextract-client.py does the talking.
 */
describeIf(needs.pythonClients)('official extraction client (scrapinghub-autoextract) against the extraction API', () => {
  let stack: ExtractionStack;
  beforeAll(async () => {
    stack = await startExtractionStack();
  }, 90_000);
  afterAll(() => stack?.close());

  it('batches in order, query errors and billing, articleBodyRaw, problem types, and the command line tool', async () => {
    const key = await stack.platform.createKey([1], ['extraction']);
    const disabled = await stack.platform.createKey([1]);
    const args = [`${stack.apiUrl}/v1/extract`, key, disabled, stack.site.url, SITE_ARTICLE.headline, SITE_PRODUCT.name, SITE_PRODUCT.price];
    const r = await runScript(python, join(__dirname, 'autoextract-client.py'), args, { ...process.env, PYTHONUNBUFFERED: '1' });
    if (r.code !== 0) console.error(r.output);
    expect(r.output).toContain('all checks passed');
    expect(r.code).toBe(0);
  }, 150_000);
});
