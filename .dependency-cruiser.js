/**
 * The layer rules, checked by dependency-cruiser on every test run
 * (test/architecture/dependency-rules.test.ts; by hand: `npm run lint:deps`).
 * docs/DESIGN.md, "Layer rules", says why each exists.
 */
const DRIVERS = 'node_modules/(better-sqlite3|kafkajs|mongodb|puppeteer|puppeteer-core|puppeteer-cluster)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Modules never import each other in a circle (type-only imports count: they still tie the two together).',
      severity: 'error',
      from: { path: '^(apps|libs)/' },
      to: { circular: true },
    },
    {
      name: 'libs-never-import-apps',
      comment: 'Apps are thin entry points over libs; no lib depends on an app.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-import-libs-not-apps',
      comment:
        'An app picks libs; it does not reach into another app. Scoped: apps/all composes every app in one process ' +
        '(what `npm start` runs) and apps/cli runs the projector app in-process for `crawlhub replay`, so those two may.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/', pathNot: '^apps/(all|cli)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'libs-through-their-index',
      comment: 'A lib (or an app) uses another lib only through its index, `@crawlhub/<lib>`: what it exports, its ports among them.',
      severity: 'error',
      from: { path: '^(apps/[^/]+|libs/([^/]+))/' },
      to: { path: '^libs/[^/]+/', pathNot: ['^libs/$2/', '^libs/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'drivers-only-in-adapters',
      comment: 'Storage, log and browser drivers are imported only by adapters/ folders; the rest of the code goes through ports.',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: '/adapters/' },
      to: { path: DRIVERS },
    },
    {
      name: 'node-sqlite-only-in-adapters',
      comment: "Node's own SQLite driver is a driver too.",
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: '/adapters/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?sqlite$' },
    },
    {
      name: 'domain-is-plain-code',
      comment: 'domain/ folders hold rules only: no adapters, no HTTP, no NestJS.',
      severity: 'error',
      from: { path: '/domain/' },
      to: { path: ['/adapters/', 'node_modules/@nestjs/', 'node_modules/fastify/'] },
    },
    {
      name: 'controllers-and-handlers-use-ports',
      comment: 'Controllers and command/query handlers reach storage through ports, never an adapter.',
      severity: 'error',
      from: { path: '\\.(controller|handler)\\.ts$' },
      to: { path: '/adapters/' },
    },
    {
      name: 'extraction-engine-is-a-pure-library',
      comment: 'libs/extraction: html + url in, article or product out; no HTTP, no NestJS, no event log, no network, no other lib.',
      severity: 'error',
      from: { path: '^libs/extraction/' },
      to: { path: ['node_modules/@nestjs/', 'node_modules/fastify/', '^(node:)?(http|https|net|dns|tls)$', '^libs/(?!extraction/)'] },
    },
    {
      name: 'console-ui-takes-types-only',
      comment: 'The browser app (libs/console/ui) takes no server code: of the libs and apps, it imports only @crawlhub/wire (types, importing nothing).',
      severity: 'error',
      from: { path: '^libs/console/ui/' },
      to: { path: '^(libs|apps)/', pathNot: '^libs/(console/ui|wire)/' },
    },
    {
      name: 'wire-is-types-only',
      comment: 'libs/wire holds the JSON shapes of API answers and imports nothing, so the console can type-check and bundle against it without Node or server code.',
      severity: 'error',
      from: { path: '^libs/wire/' },
      to: { pathNot: '^libs/wire/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.spec\\.ts$', '(^|/)dist/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['require', 'node', 'default', 'types'] },
  },
};
