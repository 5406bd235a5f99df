import NodeEnvironment from 'jest-environment-node';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The test environment of every jest project (jest.config.js): each test file gets a
 * temporary directory of its own as TMPDIR, for itself (`os.tmpdir()`) and for every
 * process it starts (spawned platforms, jobs of runners, browsers), and the directory is
 * removed when the file is done, after its afterAll hooks have stopped what they started.
 * So no suite leaves crawlhub-* folders behind, and none has to remember to remove them.
 * (jest-environment-node is jest's own `testEnvironment: 'node'`.)
 */
export default class TempDirEnvironment extends NodeEnvironment {
  private dir = '';
  private previous: string | undefined;

  override async setup(): Promise<void> {
    await super.setup();
    this.dir = mkdtempSync(join(tmpdir(), 'crawlhub-suite-'));
    this.previous = process.env.TMPDIR;
    // A jest process runs one test file at a time: os.tmpdir() reads this process's TMPDIR,
    // and the test file sees a copy of the environment of its own.
    process.env.TMPDIR = this.dir;
    this.global.process.env.TMPDIR = this.dir;
  }

  override async teardown(): Promise<void> {
    if (this.previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = this.previous;
    await removeDirectory(this.dir);
    await super.teardown();
  }
}

/**
 * A SIGKILLed platform's threads can still be closing (and SQLite re-creating) files in the
 * directory for a moment. rmSync's own retries only retry the last rmdir, never the files
 * that appeared after it listed the directory, so the whole removal is tried again, for up
 * to about 10 s; what is still there after that is named.
 */
async function removeDirectory(dir: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      rmSync(dir, { recursive: true, force: true });
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EBUSY') || attempt === 40) {
        const left = readdirSync(dir, { recursive: true });
        throw new Error(`could not remove the suite's temporary directory ${dir} (${code}): still in it: ${left.join(', ')}`);
      }
      await sleep(250);
    }
  }
}
