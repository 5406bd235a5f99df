import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The small Scrapy project of the deploy tests (its spider imports `inflection`, from its requirements.txt). */
export const SHUB_PROJECT = join(__dirname, '../compat/fixtures/shub-project');

/** pip's cache for the environments tests build: under the crawlhub cache, so a second run downloads nothing. */
export const TEST_PIP_CACHE = join(process.env.CRAWLHUB_CACHE ?? join(homedir(), '.cache', 'crawlhub'), 'pip');

/**
 * A copy of the fixture project in a temporary folder (building an egg writes into the
 * project folder), with `files` written over it: path relative to the project -> text.
 */
export function projectCopy(files: Record<string, string> = {}): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'crawlhub-scrapy-project-'));
  cpSync(SHUB_PROJECT, dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Builds the project's egg as `shub deploy` does (`setup.py bdist_egg`), with `python`; answers its bytes. */
export function buildEgg(python: string, projectDir: string): Buffer {
  const out = mkdtempSync(join(tmpdir(), 'crawlhub-egg-'));
  try {
    execFileSync(python, ['setup.py', '-q', 'bdist_egg', '-d', out], { cwd: projectDir, stdio: 'pipe' });
    const egg = readdirSync(out).find((f) => f.endsWith('.egg'))!;
    return require('node:fs').readFileSync(join(out, egg)) as Buffer;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A spider module that does not import (for the failing deploys). */
export const BROKEN_SPIDER = "import module_that_does_not_exist  # noqa\nimport scrapy\n\n\nclass BrokenSpider(scrapy.Spider):\n    name = 'broken'\n";

/** The titles of the bookshop page; the fixture spider yields them titleized (with `inflection`). */
export const TITLES = ['the little prince', 'war and peace', 'one hundred years of solitude'];

/** A bookshop page on 127.0.0.1; `/hold` answers only once `release()` is called. */
export async function startBookshop(): Promise<{ url: string; release(): void; close(): Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const page = `<!doctype html><html><body><ul>${TITLES.map((t) => `<li class="book">${t}</li>`).join('')}</ul></body></html>`;
  const server: Server = createServer((req, res) => {
    const send = () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    if (req.url === '/hold') void held.then(send);
    else send();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
