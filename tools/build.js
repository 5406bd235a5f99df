#!/usr/bin/env node
// The build (`npm run build`): tsc, then tsc-alias (rewrites the @crawlhub/* imports of the
// output), then the web console's browser bundle (tools/build-console.js, esbuild). With --if-changed (what `npm start`, `npm run crawlhub` and `npm run bench` run
// first) it builds only when the sources changed since the last build: a full build takes
// some 16 s of CPU, which `npm start -- --help` used to pay every time.
//
// "Changed" compares a fingerprint of the sources (path, mtime and size of every file
// tsconfig.build.json compiles and of the console's sources, of the tsconfig files and of package-lock.json) with the
// one of the last successful build, kept in dist/.sources-fingerprint. It is taken before
// the build starts, so a file saved during a build makes the next start build again, and
// a file added, removed or renamed changes it as an edit does.
'use strict';

const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const ts = require('typescript');
const { buildConsole, consoleSources } = require('./build-console');

const ROOT = join(__dirname, '..');
const BUILD_CONFIG = join(ROOT, 'tsconfig.build.json');
const FINGERPRINT_FILE = join(ROOT, 'dist', '.sources-fingerprint');

/** What the build in `root` reads, as its tsconfig.build.json says (no second list of globs to keep in step). */
function sourceFiles(root) {
  const config = join(root, 'tsconfig.build.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  return [...parsed.fileNames, ...consoleSources(root), config, join(root, 'tsconfig.json'), join(root, 'package-lock.json')];
}

/** The fingerprint of the sources of the build in `root`: path, mtime and size of each. */
function sourcesFingerprint(root = ROOT) {
  const hash = createHash('sha256');
  for (const file of sourceFiles(root).sort()) {
    const stat = statSync(file, { throwIfNoEntry: false });
    hash.update(`${relative(root, file)}\t${stat ? `${stat.mtimeMs}\t${stat.size}` : 'missing'}\n`);
  }
  return hash.digest('hex');
}

function build(fingerprint) {
  const run = (bin, args) => execFileSync(process.execPath, [require.resolve(bin), ...args], { cwd: ROOT, stdio: 'inherit' });
  run('typescript/bin/tsc', ['-p', BUILD_CONFIG]);
  run('tsc-alias/dist/bin/index.js', ['-p', BUILD_CONFIG]);
  buildConsole(ROOT);
  writeFileSync(FINGERPRINT_FILE, `${fingerprint}\n`);
}

function main() {
  const fingerprint = sourcesFingerprint();
  if (process.argv.includes('--if-changed')) {
    const built = existsSync(FINGERPRINT_FILE) ? readFileSync(FINGERPRINT_FILE, 'utf8').trim() : null;
    if (built === fingerprint) return;
    console.error(`crawlhub: ${built === null ? 'not built yet' : 'the sources changed since the last build'}: building first`);
  }
  try {
    build(fingerprint);
  } catch (e) {
    // tsc and tsc-alias printed why; no stack of this script on top.
    process.exit(typeof e.status === 'number' && e.status !== 0 ? e.status : 1);
  }
}

// Run by npm; required by its test (test/tools/build.test.ts) for the fingerprint.
if (require.main === module) main();
module.exports = { sourcesFingerprint };
