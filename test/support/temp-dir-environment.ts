import NodeEnvironment from 'jest-environment-node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    // A SIGKILLed platform's threads can still be closing files in it for a moment: retry for up to about 10 s.
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 12, retryDelay: 150 });
    await super.teardown();
  }
}
