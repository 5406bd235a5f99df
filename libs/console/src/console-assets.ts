import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What `npm run build` writes for the browser (tools/build-console.js): the bundle, its stylesheet and the manifest naming them. */
export interface ConsoleBuild {
  dir: string;
  /** file name -> content, kept in memory: a few hundred KB at most, served on every page load. */
  files: Map<string, Buffer>;
  /** The page shell's script and stylesheet, with their content hash (cached for a year). */
  script: string;
  stylesheet: string;
}

/** The folder of the built console: `dist/console` of the project (from the sources or from dist alike). */
export function consoleBuildDir(from: string = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return join(from, 'console');
    dir = parent;
  }
  return join(dir, 'dist', 'console');
}

/** The built console, or null when it was not built (the pages then say how to build it). */
export function loadConsoleBuild(dir: string = consoleBuildDir()): ConsoleBuild | null {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) return null;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { script: string; stylesheet: string; files: string[] };
  const files = new Map(manifest.files.map((name) => [name, readFileSync(join(dir, name))]));
  return { dir, files, script: manifest.script, stylesheet: manifest.stylesheet };
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.map': 'application/json' };

export function contentTypeOf(name: string): string {
  return TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
}

/** The page every console URL answers: the app takes the path from there. No inline script, so the CSP can forbid them. */
export function pageShell(build: ConsoleBuild): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>crawlhub console</title>
<link rel="stylesheet" href="/console/assets/${build.stylesheet}">
<script defer src="/console/assets/${build.script}"></script>
</head>
<body>
<div id="app"><p class="loading">Loading the console…</p></div>
<noscript>The crawlhub console needs JavaScript. Every page is backed by the public APIs: see docs/console.md.</noscript>
</body>
</html>
`;
}

/** Nothing is loaded from other hosts: scripts, styles, images and connections stay on this origin. */
export const CONSOLE_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
