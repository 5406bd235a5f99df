import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Layer rules of the hexagon, checked on every run: drivers stay in adapters, the
 * environment is read only by libs/config, and domain code depends on nothing outside it.
 */
const ROOT = join(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

const files = [...sources(join(ROOT, 'apps')), ...sources(join(ROOT, 'libs'))].map((path) => ({
  path: relative(ROOT, path),
  imports: [...readFileSync(path, 'utf8').matchAll(/from '([^']+)'|require\('([^']+)'\)/g)].map((m) => m[1] ?? m[2]),
  text: readFileSync(path, 'utf8'),
}));

describe('layer rules', () => {
  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(['better-sqlite3', 'mongodb', 'kafkajs'])('imports %s only from adapters/ folders', (driver) => {
    const offenders = files.filter((f) => f.imports.includes(driver) && !f.path.includes('/adapters/')).map((f) => f.path);
    expect(offenders).toEqual([]);
  });

  it('reads process.env only in libs/config', () => {
    const offenders = files.filter((f) => /process\.env/.test(f.text) && !f.path.startsWith('libs/config/')).map((f) => f.path);
    expect(offenders).toEqual([]);
  });

  it('keeps domain/ folders free of adapters, HTTP and NestJS', () => {
    const offenders = files
      .filter((f) => f.path.includes('/domain/'))
      .flatMap((f) => f.imports.filter((i) => i.includes('adapters') || i.startsWith('@nestjs') || i === 'fastify').map((i) => `${f.path} -> ${i}`));
    expect(offenders).toEqual([]);
  });

  it('keeps the extraction engine a pure library: no HTTP, no NestJS, no event log, no network', () => {
    const offenders = files
      .filter((f) => f.path.startsWith('libs/extraction/'))
      .flatMap((f) =>
        f.imports
          .filter((i) => i.startsWith('@nestjs') || i === 'fastify' || /^(node:)?(http|https|net|dns)$/.test(i) || (i.startsWith('@crawlhub/') && i !== '@crawlhub/extraction'))
          .map((i) => `${f.path} -> ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps controllers and handlers off adapters (they use ports)', () => {
    const offenders = files
      .filter((f) => /\.(controller|handler)\.ts$/.test(f.path))
      .flatMap((f) => f.imports.filter((i) => i.includes('/adapters/')).map((i) => `${f.path} -> ${i}`));
    expect(offenders).toEqual([]);
  });
});
