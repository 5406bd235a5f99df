import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PageExtractionTimeout, PageExtractor } from '../../libs/extraction-batches/src/worker/page-extractor';
import type { PageJob } from '../../libs/extraction-batches/src/worker/page-extraction';

/** The built thread body (`npm run build` first): the engine on a real worker thread. */
const THREAD_SCRIPT = join(__dirname, '../../dist/libs/extraction-batches/src/worker/extraction-thread.js');

const page = (html: string): PageJob => ({ body: Buffer.from(html), contentType: 'text/html; charset=utf-8', url: 'https://news.example/2024/story', pageType: 'article', articleBodyRaw: false });
const PROSE = 'A sentence of the story, long enough to count as prose, with a comma or two. '.repeat(6);
const STORY = `<html><head><title>Story</title></head><body><article><h1>Story</h1><p>${PROSE}</p><p>${PROSE}</p></article></body></html>`;
// htmlparser2 keeps its open-element stack in an array it scans on every tag: seconds of CPU here.
const PATHOLOGICAL = `<html><body>${'<div>'.repeat(100_000)}<p>${PROSE}</p></body></html>`;

describe('PageExtractor on worker threads', () => {
  let extractor: PageExtractor;
  beforeAll(() => {
    if (!existsSync(THREAD_SCRIPT)) throw new Error(`${THREAD_SCRIPT} is missing: run npm run build first`);
  });
  afterEach(() => extractor?.close());

  it('extracts on a thread', async () => {
    extractor = new PageExtractor({ threads: 1, pageTimeoutMs: 30_000, threadScript: THREAD_SCRIPT });
    expect(extractor.threadCount).toBe(1);
    const { result, ms } = await extractor.extract(page(STORY));
    expect(result?.headline).toBe('Story');
    expect(result?.articleBody).toContain('A sentence of the story');
    expect(ms).toBeGreaterThan(0);
  });

  it('stops a page that runs past the limit, replaces the thread, and loses none of the pages queued behind it', async () => {
    extractor = new PageExtractor({ threads: 1, pageTimeoutMs: 300, threadScript: THREAD_SCRIPT });
    const started = Date.now();
    const slow = extractor.extract(page(PATHOLOGICAL)).then(
      () => 'finished',
      (e: unknown) => e,
    );
    const queued = [extractor.extract(page(STORY)), extractor.extract(page(STORY))];
    const outcome = await slow;
    expect(outcome).toBeInstanceOf(PageExtractionTimeout);
    expect(Date.now() - started).toBeLessThan(3_000);
    for (const { result } of await Promise.all(queued)) expect(result?.articleBody).toContain('A sentence of the story');
    expect(extractor.threadCount).toBe(1);
  });
});
