#!/usr/bin/env node
// `npm run docs:config`: writes the README's settings table from CONFIG_DOCS (libs/config),
// the one list of settings (the config spec fails while the README differs from it).
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { withConfigTable } = require('../dist/libs/config/src/config-docs');

const path = join(__dirname, '..', 'README.md');
const before = readFileSync(path, 'utf8');
const after = withConfigTable(before);
if (after === before) console.log('README.md: the config table is up to date');
else {
  writeFileSync(path, after);
  console.log('README.md: config table written from CONFIG_DOCS');
}
