import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The layer rules (.dependency-cruiser.js, docs/DESIGN.md "Layer rules") hold for the
 * code, and each rule does catch what it names (on a small project made for the purpose,
 * so a rule whose pattern matches nothing fails here instead of passing silently).
 */
const ROOT = join(__dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');

jest.setTimeout(240_000);

function depcruise(cwd: string, outputType: 'err' | 'json'): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(DEPCRUISE, ['apps', 'libs', '--config', join(ROOT, '.dependency-cruiser.js'), '--output-type', outputType], { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr }),
    );
  });
}

describe('layer rules (dependency-cruiser)', () => {
  it('hold for apps/ and libs/', async () => {
    const { code, out } = await depcruise(ROOT, 'err');
    expect(out).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  describe('catch each violation they name', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'crawlhub-layers-'));
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', moduleResolution: 'node', baseUrl: '.', paths: { '@crawlhub/*': ['libs/*/src'] } } }),
        'apps/web/main.ts': "import { y } from '../api/main';\nimport { x } from '@crawlhub/a';\nexport const w = [x, y];\n",
        'apps/api/main.ts': 'export const y = 1;\n',
        'libs/a/src/index.ts': "export * from './domain/rule';\n",
        'libs/a/src/domain/rule.ts': "import { Kafka } from 'kafkajs';\nimport { Injectable } from '@nestjs/common';\nexport const x = [Kafka, Injectable];\n",
        'libs/b/src/index.ts': "import { x } from '../../a/src/domain/rule';\nimport { w } from '../../../apps/web/main';\nexport * from './one';\nexport * from './items.controller';\nexport const z = [x, w];\n",
        'libs/b/src/one.ts': "import { two } from './two';\nexport const one = () => two();\n",
        'libs/b/src/two.ts': "import { one } from './one';\nexport const two = () => one;\n",
        'libs/b/src/items.controller.ts': "import { db } from './adapters/sqlite/items.sqlite';\nexport const items = db;\n",
        'libs/b/src/adapters/sqlite/items.sqlite.ts': "import Database from 'better-sqlite3';\nexport const db = Database;\n",
        'libs/extraction/src/index.ts': "import { request } from 'node:http';\nimport { x } from '@crawlhub/a';\nexport const e = [request, x];\n",
        'libs/console/ui/page.ts': "import { x } from '@crawlhub/a';\nimport type { Shape } from '@crawlhub/wire';\nexport const p: Shape = { x };\n",
        'libs/wire/src/index.ts': "import type { x } from '@crawlhub/a';\nexport interface Shape { x: typeof x }\n",
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('names every rule broken by the sample project', async () => {
      const { out } = await depcruise(dir, 'json');
      const violations = (JSON.parse(out) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } }).summary.violations;
      const found = violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`);
      expect(found).toEqual(
        expect.arrayContaining([
          'apps-import-libs-not-apps: apps/web/main.ts -> apps/api/main.ts',
          'libs-never-import-apps: libs/b/src/index.ts -> apps/web/main.ts',
          'libs-through-their-index: libs/b/src/index.ts -> libs/a/src/domain/rule.ts',
          'no-cycles: libs/b/src/one.ts -> libs/b/src/two.ts',
          expect.stringMatching(/^drivers-only-in-adapters: libs\/a\/src\/domain\/rule\.ts -> node_modules\/kafkajs\//),
          expect.stringMatching(/^domain-is-plain-code: libs\/a\/src\/domain\/rule\.ts -> node_modules\/@nestjs\/common\//),
          'controllers-and-handlers-use-ports: libs/b/src/items.controller.ts -> libs/b/src/adapters/sqlite/items.sqlite.ts',
          'extraction-engine-is-a-pure-library: libs/extraction/src/index.ts -> http', // node:http, as node names it
          'extraction-engine-is-a-pure-library: libs/extraction/src/index.ts -> libs/a/src/index.ts',
          'console-ui-takes-types-only: libs/console/ui/page.ts -> libs/a/src/index.ts',
          'wire-is-types-only: libs/wire/src/index.ts -> libs/a/src/index.ts',
        ]),
      );
      // The adapter itself may import its driver, and an app may import a lib's index.
      expect(found.filter((f) => f.includes('items.sqlite.ts ->') || f.startsWith('libs-through-their-index: apps/'))).toEqual([]);
      // The console's types come from @crawlhub/wire.
      expect(found.filter((f) => f.includes('-> libs/wire/'))).toEqual([]);
    });
  });
});
