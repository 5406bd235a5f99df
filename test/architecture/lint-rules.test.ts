import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ESLint as ESLintType } from 'eslint';

/**
 * The lint rules (eslint.config.js) hold for the code, specs, tests and benches, and catch
 * each thing they forbid (so a selector that matches nothing fails here instead of passing
 * silently): time and ids (docs/DESIGN.md "Time and ids") in apps/ and libs/, and no
 * floating promises anywhere. A sample is linted as the text of a file that exists, since
 * the typed rule reads the file's project through TypeScript's project service.
 */
const ROOT = join(__dirname, '../..');
const installed = existsSync(join(ROOT, 'node_modules/eslint'));
if (!installed) console.log('skipped the lint rules test: eslint is not installed (npm ci installs it)');

jest.setTimeout(240_000);

/** One ESLint for the file: the typed rule's project service starts once, not once per sample. */
let linter: ESLintType;

async function lint(code: string, filePath: string): Promise<{ errors: number; messages: string }> {
  const [result] = await linter.lintText(code, { filePath: join(ROOT, filePath) });
  return { errors: result.errorCount, messages: result.messages.map((m) => `${m.ruleId}: ${m.message}`).join('\n') };
}

const A_LIB = 'libs/storage/src/index.ts';
const A_TEST = 'test/support/temp-dir-environment.ts';

(installed ? describe : describe.skip)('lint rules (eslint)', () => {
  beforeAll(() => {
    // eslint is required here, not imported at the top: the file must load (and print its skip) without it.
    // The config is handed over, not looked up: ESLint loads config files by a dynamic import, which jest's sandbox refuses.
    const { ESLint } = require('eslint') as typeof import('eslint');
    linter = new ESLint({ cwd: ROOT, overrideConfigFile: true, overrideConfig: require(join(ROOT, 'eslint.config.js')) });
  });

  it('hold for apps/, libs/, test/ and bench/', async () => {
    // The command line (as `npm run lint`): ESLint's search for files uses a dynamic import, which jest's sandbox refuses.
    const out = await new Promise<string>((resolve) =>
      execFile(join(ROOT, 'node_modules/.bin/eslint'), ['apps', 'libs', 'test', 'bench'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
        resolve(`${err ? `exit ${err.code}\n` : ''}${stdout}${stderr}`),
      ),
    );
    expect(out).toBe('');
  });

  it.each([
    ['Date.now()', 'export const t = Date.now();'],
    ['new Date()', 'export const d = new Date();'],
    ['crypto.randomUUID()', "import * as crypto from 'node:crypto';\nexport const id = crypto.randomUUID();"],
    ['an import of randomUUID', "import { randomUUID } from 'node:crypto';\nexport const id = randomUUID();"],
    ['createEvent without stamps', "import { createEvent } from '@crawlhub/contracts';\nexport const e = createEvent({ type: 't', key: 'k', data: {}, actor: { kind: 'system', id: 's' } });"],
  ])('catches %s in a lib', async (_what, code) => {
    const result = await lint(code, A_LIB);
    expect(result.errors).toBe(1);
    expect(result.messages).toContain('docs/DESIGN.md, "Time and ids"');
  });

  it('lets a duration use performance.now(), and a new Date of a given time pass', async () => {
    const result = await lint('const t0 = performance.now();\nexport const d = [performance.now() - t0, new Date(0)];\n', A_LIB);
    expect(result).toEqual({ errors: 0, messages: '' });
  });

  it.each([
    ['a lib', A_LIB],
    ['a test', A_TEST],
  ])('catches a promise nobody awaits in %s, and lets an awaited or voided one pass', async (_where, file) => {
    const close = 'export async function close(): Promise<void> {}\n';
    const floating = await lint(`${close}export function stop(): void {\n  close();\n}\n`, file);
    expect(floating.errors).toBe(1);
    expect(floating.messages).toContain('@typescript-eslint/no-floating-promises');
    const handled = await lint(`${close}export async function stop(): Promise<void> {\n  await close();\n  void close();\n}\n`, file);
    expect(handled).toEqual({ errors: 0, messages: '' });
  });
});
