// The web console's browser bundle (libs/console/ui -> dist/console), run by tools/build.js.
// esbuild compiles the TSX (Preact's JSX runtime) and bundles Preact, uPlot and the
// stylesheets into one script and one stylesheet named by their content hash, plus
// manifest.json naming them for the dash role's page shell (libs/console). Nothing is
// loaded from other hosts at run time.
'use strict';

const { existsSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');

const UI_DIR = join('libs', 'console', 'ui');

/** Every source of the bundle (for the build's fingerprint). */
function consoleSources(root) {
  const walk = (dir) => readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
  return existsSync(join(root, UI_DIR)) ? walk(join(root, UI_DIR)) : [];
}

/** Bundles the console into `outDir`; returns the manifest it wrote. */
function buildConsole(root, outDir = join(root, 'dist', 'console')) {
  const esbuild = require('esbuild');
  rmSync(outDir, { recursive: true, force: true });
  const result = esbuild.buildSync({
    absWorkingDir: root,
    entryPoints: [join(UI_DIR, 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: outDir,
    entryNames: 'console-[hash]',
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const manifest = {
    script: files.find((f) => f.endsWith('.js')),
    stylesheet: files.find((f) => f.endsWith('.css')),
    files,
  };
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

module.exports = { buildConsole, consoleSources };
