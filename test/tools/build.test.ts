import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

jest.setTimeout(180_000);

/**
 * `npm start` builds only when the sources changed (tools/build.js --if-changed): a full
 * build took some 16 s, which `npm start -- --help` paid every time.
 */
const ROOT = join(__dirname, '../..');
const { sourcesFingerprint } = require('../../tools/build.js') as { sourcesFingerprint(root: string): string };

function run(command: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile(command, args, { cwd: ROOT, timeout: 150_000 }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` })),
  );
}

describe('npm start builds only when the sources changed', () => {
  it('starts from the last build when nothing changed: no tsc, the output untouched', async () => {
    // Bring the build up to date, whatever this checkout's state (npm test has just built it).
    expect((await run(process.execPath, ['tools/build.js', '--if-changed'])).code).toBe(0);
    const main = join(ROOT, 'dist/apps/all/main.js');
    const builtAt = statSync(main).mtimeMs;
    const started = Date.now();
    const help = await run('npm', ['start', '--', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: npm start');
    expect(help.out).not.toContain('building first');
    expect(statSync(main).mtimeMs).toBe(builtAt);
    console.log(`npm start -- --help on an up-to-date build: ${Date.now() - started} ms`);
  });

  it('sees an edited, an added, a removed and a renamed source, and nothing else', () => {
    const root = mkdtempSync(join(tmpdir(), 'crawlhub-build-'));
    try {
      mkdirSync(join(root, 'libs/a'), { recursive: true });
      mkdirSync(join(root, 'test'), { recursive: true });
      writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions": {"strict": true}}');
      writeFileSync(join(root, 'tsconfig.build.json'), '{"extends": "./tsconfig.json", "include": ["libs/**/*.ts"], "exclude": ["**/*.spec.ts"]}');
      writeFileSync(join(root, 'package-lock.json'), '{}');
      writeFileSync(join(root, 'libs/a/one.ts'), 'export const one = 1;\n');
      const fingerprints = [sourcesFingerprint(root)];
      const changed = (what: () => void) => {
        what();
        fingerprints.push(sourcesFingerprint(root));
        return fingerprints[fingerprints.length - 1] !== fingerprints[fingerprints.length - 2];
      };
      expect(changed(() => undefined)).toBe(false);
      // What the build does not compile changes nothing.
      expect(changed(() => writeFileSync(join(root, 'libs/a/one.spec.ts'), 'test;\n'))).toBe(false);
      expect(changed(() => writeFileSync(join(root, 'test/x.ts'), 'x;\n'))).toBe(false);
      // Saved again, even with the same size: a new mtime.
      expect(changed(() => utimesSync(join(root, 'libs/a/one.ts'), new Date(), new Date(Date.now() + 5_000)))).toBe(true);
      expect(changed(() => writeFileSync(join(root, 'libs/a/two.ts'), 'export const two = 2;\n'))).toBe(true);
      expect(changed(() => renameSync(join(root, 'libs/a/two.ts'), join(root, 'libs/a/three.ts')))).toBe(true);
      expect(changed(() => rmSync(join(root, 'libs/a/three.ts')))).toBe(true);
      expect(changed(() => writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions": {"strict": false}}'))).toBe(true);
      expect(changed(() => writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3}'))).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
