import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The one layer rule that is not about imports (dependency-cruiser checks those): the
 * environment is read only by libs/config, which turns it into the typed config object.
 * Found on the syntax tree, so comments and strings that mention process.env do not count.
 */
const ROOT = join(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function readsEnvironment(path: string): boolean {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, false);
  const visit = (node: ts.Node): boolean =>
    (ts.isPropertyAccessExpression(node) && node.name.text === 'env' && node.expression.getText(file) === 'process') || ts.forEachChild(node, visit) === true;
  return visit(file);
}

describe('environment reads', () => {
  const files = [...sources(join(ROOT, 'apps')), ...sources(join(ROOT, 'libs'))];

  it('happen only in libs/config', () => {
    expect(files.filter((f) => readsEnvironment(f)).map((f) => relative(ROOT, f)).filter((f) => !f.startsWith('libs/config/'))).toEqual([]);
  });

  it('are found where they are', () => {
    expect(files.filter((f) => readsEnvironment(f)).length).toBeGreaterThan(0);
  });
});
