import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadConfig } from '@crawlhub/config';

/**
 * Suites and tests that cannot run here (a server, a client or a tool is missing) are
 * skipped, never passed: jest counts them as skipped, the reason is printed now, and it
 * is part of their title, where test/run-tests.sh reads it for its summary ("skipped:
 * <file>: N tests: <reason>"). Never `return` early from a test instead: it would pass
 * without checking anything.
 */

/** Put after a skipped suite's or test's title; test/run-tests.sh looks for it. */
export const SKIP_MARK = ' -- skipped: ';

/** Something a suite needs from outside, and why it is skipped without it. */
export interface Need {
  met: boolean;
  reason: string;
}

/** The browser the render suites start (test/run-tests.sh installs Debian's chromium-headless-shell; CHROMIUM_PATH names another). */
export const CHROMIUM = loadConfig({ CHROMIUM_PATH: process.env.CHROMIUM_PATH }).render.chromiumPath;

/** The servers, clients and tools test/run-tests.sh provisions (see there), as the suites need them. */
export const needs = {
  kafka: { met: !!process.env.KAFKA_BROKERS, reason: 'KAFKA_BROKERS is not set (test/run-tests.sh starts a broker with test/infra/kafka.sh)' },
  mongodb: { met: !!process.env.MONGODB_URI, reason: 'MONGODB_URI is not set (test/run-tests.sh starts a MongoDB wire-protocol server with test/infra/mongodb.sh)' },
  pythonClients: { met: !!process.env.PYTHON_CLIENTS, reason: 'PYTHON_CLIENTS is not set (test/run-tests.sh installs the official Python clients with test/compat/python-env.sh)' },
  scrapy: { met: !!process.env.SCRAPY_PYTHON, reason: 'SCRAPY_PYTHON is not set (test/run-tests.sh installs Scrapy, sh_scrapy and scrapy-zyte-smartproxy with test/compat/scrapy-env.sh)' },
  shub: { met: !!process.env.SHUB, reason: 'SHUB is not set (test/run-tests.sh installs shub 2.18.1 with test/compat/shub-env.sh)' },
  /** What builds the environments of deploys (DEPLOY_PYTHON, default python3) and the fixture project's egg. */
  venv: {
    get met() {
      return spawnSync('python3', ['-c', 'import venv, ensurepip, setuptools']).status === 0;
    },
    reason: 'python3 with venv, ensurepip and setuptools is needed to build environments and eggs (Debian: apt-get install python3-venv python3-setuptools)',
  },
  chromium: { met: existsSync(CHROMIUM), reason: `no browser at ${CHROMIUM} (test/run-tests.sh installs chromium-headless-shell with apt-get; CHROMIUM_PATH names another)` },
  curl: {
    get met() {
      return spawnSync('curl', ['--version']).status === 0;
    },
    reason: 'curl is not installed (test/run-tests.sh installs it with apt-get)',
  },
} satisfies Record<string, Need>;

type Suite = (name: string, fn: () => void) => void;
type Test = (name: string, fn: jest.ProvidesCallback, timeout?: number) => void;

/** `describe` when the need is met; otherwise the suite is skipped with its reason. */
export function describeIf(need: Need): Suite {
  if (need.met) return describe;
  return (name, fn) => {
    console.warn(`skipped: ${name}: ${need.reason}`);
    describe.skip(`${name}${SKIP_MARK}${need.reason}`, fn);
  };
}

/** `it` when the need is met; otherwise the test is skipped with its reason. */
export function itIf(need: Need): Test {
  if (need.met) return it;
  return (name, fn, timeout) => {
    console.warn(`skipped: ${name}: ${need.reason}`);
    it.skip(`${name}${SKIP_MARK}${need.reason}`, fn, timeout);
  };
}
