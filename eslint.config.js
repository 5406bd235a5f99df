/**
 * Two rules, checked on every test run (test/run-tests.sh; by hand: `npm run lint`).
 *
 * No floating promises, everywhere (code, specs, tests, benches): a close or a write that
 * nobody awaits goes on after its caller has moved on. CI once failed that way: a spec
 * that did not await a view database's close() let its checkpoint thread reopen the file
 * while the suite's temporary directory was being removed (ENOTEMPTY). The rule needs the
 * types, so it runs on TypeScript's project service (tsconfig.json covers every file).
 *
 * The rule of time and ids (docs/DESIGN.md, "Time and ids"), checked on every test run
 * (test/run-tests.sh; by hand: `npm run lint`): every time or id that ends up in an event,
 * a fact, a view or an API answer comes from the injected CLOCK and IDS
 * (libs/contracts/src/clock.ts); durations and local timeouts use performance.now().
 * The layer rules are dependency-cruiser's. The console's
 * browser code (libs/console/ui, .tsx) is not checked: its "now" is the user's.
 */
const tsParser = require('@typescript-eslint/parser');
const tsPlugin = require('@typescript-eslint/eslint-plugin');

const WHY = 'Time and ids come from the injected CLOCK and IDS (libs/contracts/src/clock.ts); durations and timeouts use performance.now() (docs/DESIGN.md, "Time and ids").';

const timeAndIds = {
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: WHY },
    { object: 'crypto', property: 'randomUUID', message: WHY },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: 'NewExpression[callee.name="Date"][arguments.length=0]', message: `new Date() reads the wall clock. ${WHY}` },
    { selector: 'ImportSpecifier[imported.name="randomUUID"]', message: WHY },
    { selector: 'CallExpression[callee.name="createEvent"][arguments.length<2]', message: `createEvent takes its stamps: createEvent(e, { clock, ids }). ${WHY}` },
  ],
};

module.exports = [
  { ignores: ['dist/**', 'node_modules/**', 'libs/console/ui/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tsParser, parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    plugins: { '@typescript-eslint': tsPlugin },
    // Directives for rules this config does not run (no-control-regex in xml.ts) are not its business.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: timeAndIds,
  },
  {
    // The one place that reads the system clock and ids: their system implementations.
    files: ['libs/contracts/src/clock.ts'],
    rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': 'off' },
  },
];
