import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The rule of time and ids (eslint.config.js, docs/DESIGN.md "Time and ids") holds for
 * apps/ and libs/, and catches each thing it forbids (so a selector that matches nothing
 * fails here instead of passing silently).
 */
const ROOT = join(__dirname, '../..');
const ESLINT = join(ROOT, 'node_modules/.bin/eslint');
const installed = existsSync(ESLINT);
if (!installed) console.log('skipped the time-and-ids lint test: eslint is not installed (npm ci installs it)');

jest.setTimeout(240_000);

function eslint(args: string[], stdin?: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(ESLINT, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr }),
    );
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

(installed ? describe : describe.skip)('time and ids (eslint)', () => {
  it('hold for apps/ and libs/', async () => {
    const { code, out } = await eslint(['apps', 'libs']);
    expect(out).toBe('');
    expect(code).toBe(0);
  });

  it.each([
    ['Date.now()', 'export const t = Date.now();'],
    ['new Date()', 'export const d = new Date();'],
    ['crypto.randomUUID()', "import * as crypto from 'node:crypto';\nexport const id = crypto.randomUUID();"],
    ['an import of randomUUID', "import { randomUUID } from 'node:crypto';\nexport const id = randomUUID();"],
    ['createEvent without stamps', "import { createEvent } from '@crawlhub/contracts';\nexport const e = createEvent({ type: 't', key: 'k', data: {}, actor: { kind: 'system', id: 's' } });"],
  ])('catches %s in a lib', async (_what, code) => {
    const result = await eslint(['--stdin', '--stdin-filename', 'libs/storage/src/sample.ts'], code);
    expect(result.code).toBe(1);
    expect(result.out).toContain('docs/DESIGN.md, "Time and ids"');
  });

  it('lets a duration use performance.now(), and a new Date of a given time pass', async () => {
    const result = await eslint(['--stdin', '--stdin-filename', 'libs/storage/src/sample.ts'], 'const t0 = performance.now();\nexport const d = [performance.now() - t0, new Date(0)];\n');
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  });
});
