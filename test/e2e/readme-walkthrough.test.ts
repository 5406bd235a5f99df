import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, MAIN, spawnPlatform, SpawnedPlatform } from '../support/spawn-platform';
import { itIf, needs } from '../support/skip';

jest.setTimeout(300_000);

/**
 * The README's walk-through ("Using it"), run as a newcomer runs it: its ```sh walkthrough
 * blocks in order in one bash session (so KEY, PKEY and SITE carry over from block to
 * block), from the repository's folder, against a fresh platform started as `npm start`
 * starts it (the built main, every role, an empty data dir); then its ```python
 * walkthrough block with the official clients. Each step must answer what the README says
 * it answers. What differs from a newcomer's terminal, and only that:
 * - the ports: free ones, written over 127.0.0.1:8001 ... :8011 in the blocks;
 * - the data dir: a fresh one, written over `data/admin-key` and given to the CLI as DATA_DIR;
 * - SITE: a site on 127.0.0.1 (no network beyond loopback here), with the platform started
 *   with ALLOW_PRIVATE_TARGETS=true, as the README says a site on your machine needs.
 */
const ROOT = join(__dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The walk-through's runnable blocks, in order. */
function walkthroughBlocks(language: 'sh' | 'python'): string[] {
  return [...README.matchAll(/^```(\w+) walkthrough\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === language).map((m) => m[2]);
}

const HEADLINE = 'Moving crawlers home';

/** The site the walk-through crawls, fetches and extracts: an article that links to an about page. */
async function startArticleSite(): Promise<{ url: string; close(): Promise<void> }> {
  const article =
    `<!doctype html><html><head><meta charset="utf-8"><title>${HEADLINE} | The Loopback Times</title></head><body>` +
    `<header><a href="/about">About us</a></header><article><h1>${HEADLINE}</h1>` +
    `<p class="byline">By Ada Crawler, 27 November 2026</p>` +
    Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1}: a team moved its spiders from a hosted platform to machines of its own in an afternoon, with the tools it already used, and kept every item it had scraped so far.</p>`).join('') +
    `</article></body></html>`;
  const about = '<!doctype html><html><head><title>About us</title></head><body><p>We test crawlers.</p><a href="/">Home</a></body></html>';
  const server: Server = createServer((req, res) => {
    const page = req.url === '/' ? article : req.url === '/about' ? about : null;
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('the README walk-through, on a fresh platform', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'crawlhub-readme-')), 'data');
  const unique = `readme${Date.now().toString(36)}`;
  let platform: SpawnedPlatform;
  let site: Awaited<ReturnType<typeof startArticleSite>>;
  /** The README's port → this platform's. */
  const ports = new Map<string, number>();
  /** What every step's process gets: the lane's configuration (EVENT_LOG, ...) and this platform's data. */
  let env: NodeJS.ProcessEnv;

  /** A block as it runs here: this platform's ports and data dir. */
  const localised = (block: string) =>
    block.replace(/127\.0\.0\.1:(80\d\d)\b/g, (whole, port: string) => (ports.has(port) ? `127.0.0.1:${ports.get(port)}` : whole)).replaceAll('data/admin-key', join(dataDir, 'admin-key'));

  beforeAll(async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    site = await startArticleSite();
    const portSettings: Record<string, string> = {};
    for (const [port, name] of [['8001', 'DASH_PORT'], ['8002', 'STORAGE_PORT'], ['8003', 'FETCH_PORT'], ['8004', 'EXTRACT_PORT'], ['8010', 'PROXY_PORT'], ['8011', 'STATS_PORT']]) {
      ports.set(port, await freePort());
      portSettings[name] = String(ports.get(port));
    }
    env = {
      ...process.env,
      ...portSettings,
      DATA_DIR: dataDir,
      // Platforms of one test run share the Kafka broker and the MongoDB server.
      EVENT_LOG_NAMESPACE: `${unique}-`,
      MONGODB_DATABASE: `crawlhub_${unique}`,
      CRAWLHUB_ADMIN_KEY: '',
      ALLOW_PRIVATE_TARGETS: 'true',
      SITE: site.url,
    };
    platform = await spawnPlatform({ env, roles: 'all', startTimeoutMs: 120_000 });
  }, 180_000);
  afterAll(async () => {
    await platform?.stop('SIGTERM', 20_000);
    await site?.close();
  });

  it('runs every shell block in order, each answering what the README says', async () => {
    const blocks = walkthroughBlocks('sh');
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    // One bash session: a marker line before each block (after a newline: an answer may end
    // without one), to tell their outputs apart; a command that fails stops it. What the
    // blocks print is their stdout (curl's progress meter goes to stderr, kept for a failure).
    const script = ['set -e', ...blocks.flatMap((b, i) => [`echo; echo '<<<block ${i}>>>'`, localised(b)])].join('\n');
    const { code, out, err } = await new Promise<{ code: number; out: string; err: string }>((resolve) =>
      execFile('bash', ['-c', script], { cwd: ROOT, env, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
      ),
    );
    const outputs = out.split(/^<<<block \d+>>>$/m).slice(1);
    const outputOf = (command: string) => {
      const i = blocks.findIndex((b) => b.includes(command));
      expect(i).toBeGreaterThanOrEqual(0);
      return outputs[i] ?? '';
    };
    // What a newcomer would have seen, when something differs.
    if (code !== 0 || outputs.length !== blocks.length) console.log(`${out}\n${err}`);
    expect(code).toBe(0);
    expect(outputs).toHaveLength(blocks.length);

    // 1. Items written and read back with their keys.
    expect(outputOf('items/2/1/1?meta=_key').trim().split('\n')).toEqual(['{"name":"a","_key":"2/1/1/0"}', '{"name":"b","_key":"2/1/1/1"}']);
    // 3. The spider registered.
    expect(outputOf('spiders register')).toContain('registered node-crawler in project 1');
    // 4. The job is 1/1/1, it finished, and its items are the site's two pages.
    expect(outputOf('run.json').trim()).toBe('{"status":"ok","jobid":"1/1/1"}');
    expect(outputOf('close_reason').trim()).toBe('"finished"');
    const items = outputOf('items/1/1/1').trim().split('\n').map((l) => JSON.parse(l) as { url: string; title: string });
    expect(items.map((i) => [i.url, i.title]).sort()).toEqual([
      [`${site.url}/`, `${HEADLINE} | The Loopback Times`],
      [`${site.url}/about`, 'About us'],
    ]);
    // 5. The fetch succeeded and said how long a next request to the site waits (12 s spacing).
    const fetched = JSON.parse(outputOf('fetch/v2')) as { proxy_status: string; original_status: number; headers: Record<string, string>; body: string };
    expect([fetched.proxy_status, fetched.original_status]).toEqual(['success', 200]);
    expect(['11', '12']).toContain(fetched.headers['X-Proxy-Next-Request-In']);
    expect(fetched.body).toContain(`<h1>${HEADLINE}</h1>`);
    // 6. The extraction found the article.
    const [extracted] = JSON.parse(outputOf('v1/extract')) as { article?: { headline?: string }; error?: string }[];
    expect(extracted.error).toBeUndefined();
    expect(extracted.article?.headline).toBe(HEADLINE);
  });

  // After the shell blocks, as in the README: it reads the job they ran.
  itIf(needs.pythonClients)('runs the Python block with the official clients: the job\'s items and the article', async () => {
    const [block] = walkthroughBlocks('python');
    expect(block).toBeDefined();
    const { code, out } = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile(process.env.PYTHON_CLIENTS!, ['-c', localised(block)], { cwd: ROOT, env, timeout: 120_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
      ),
    );
    if (code !== 0) console.log(out);
    expect(code).toBe(0);
    expect(out).toContain(`${site.url}/ ${HEADLINE} | The Loopback Times`);
    expect(out).toContain(`${site.url}/about About us`);
    expect(out).toContain(`'headline': '${HEADLINE}'`);
    // scrapinghub[msgpack], as the README says to install: no warning about a missing msgpack.
    expect(out).not.toMatch(/msgpack/i);
  });
});
