import { ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { RecordKind } from '@crawlhub/storage';
import { JobLaunch } from '../domain/job-launch';
import { closeReasonOf, parseFifoLine, StopCause } from '../domain/line-protocol';
import { FifoReader, LineSplitter, mkfifo } from './fifo';
import { LOG_ERROR, LOG_INFO, LOG_WARNING, RecordSink } from './record-sink';

export interface JobRunSettings {
  /** Where the job's private directory is created (the runner's own folder). */
  workRoot: string;
  stopGraceMs: number;
  maxRecordBytes: number;
  /** How often buffered records are written. */
  flushMs: number;
  /** After the process exits, how long its FIFO and output may take to drain. */
  drainMs: number;
  /** Pause reading the job's output while this many records wait to be stored. */
  highWater: number;
}

/**
 * What a job runs, once known: the launch for its FIFO and its working directory (null:
 * a fresh one). A job of a deployed version knows it only once its environment is
 * ready on this machine, which may take a build.
 */
export interface JobCommand {
  launchOf(fifoPath: string): JobLaunch;
  cwd: string | null;
}

/** The job cannot run (an unregistered spider, an environment that could not be built): the message is its last log line. */
export class JobNotRunnable extends Error {}

export interface JobRunResult {
  closeReason: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stop: StopCause | null;
  /** What the job wrote: records per kind (positions after the last one). */
  counts: Record<RecordKind, number>;
}

/**
 * One job's process: once its command is known (`command`, which may wait for an
 * environment to be built), a private directory with the FIFO (and the working directory
 * when the spider has none), the command spawned in its own process group, its FIFO
 * lines, stdout and stderr turned into records, and the close reason once it exited and
 * every line was read. `stop` sends SIGTERM to the group, then SIGKILL after the grace
 * period; a job stopped while its command is not known yet ends at once, without a process.
 * A `command` that fails with JobNotRunnable ends the job as failed, its message logged.
 */
export class JobRun {
  private child: ChildProcess | null = null;
  private exited = false;
  private stopCause: StopCause | null = null;
  private killTimer: NodeJS.Timeout | null = null;
  private outcome: string | null = null;
  private paused = false;
  private readonly sources: Readable[] = [];
  /** stdout and stderr, read to their end. */
  private readonly outputs: Promise<void>[] = [];
  /** Resolves when a stop is requested: a job waiting for its command stops waiting. */
  private stopRequested!: () => void;
  private readonly stopped = new Promise<null>((resolve) => (this.stopRequested = () => resolve(null)));
  readonly done: Promise<JobRunResult>;

  constructor(
    private readonly key: string,
    private readonly command: Promise<JobCommand>,
    private readonly sink: RecordSink,
    private readonly settings: JobRunSettings,
    private readonly header: string,
  ) {
    this.done = this.run();
  }

  /** Stops the job (once): SIGTERM to its process group, SIGKILL after the grace period. */
  stop(cause: StopCause): void {
    if (this.stopCause) return;
    this.stopCause = cause;
    this.stopRequested();
    if (!this.child || this.exited) return;
    this.sink.log(LOG_INFO, `[crawlhub runner] ${stopReason(cause)}: sending SIGTERM (SIGKILL in ${this.settings.stopGraceMs} ms)`);
    this.signal('SIGTERM');
    this.killTimer = setTimeout(() => {
      if (this.exited) return;
      this.sink.log(LOG_WARNING, `[crawlhub runner] still running ${this.settings.stopGraceMs} ms after SIGTERM: sending SIGKILL`);
      this.signal('SIGKILL');
    }, this.settings.stopGraceMs);
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal); // the whole group: the command and what it started
    } catch {
      try {
        this.child!.kill(signal);
      } catch {
        /* already gone */
      }
    }
  }

  private async run(): Promise<JobRunResult> {
    let dir: string | null = null;
    let fifo: FifoReader | null = null;
    let flushTimer: NodeJS.Timeout | null = null;
    let started = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    try {
      // From the start: what a job writes while it waits for its environment (the build's log) is stored as it comes.
      flushTimer = setInterval(() => void this.sink.flush(), this.settings.flushMs);
      const command = await Promise.race([this.command, this.stopped]);
      if (command === null) {
        this.sink.log(LOG_INFO, `[crawlhub runner] ${stopReason(this.stopCause!)} before the job's process started: it ends without running`);
        return this.result(started, exit);
      }
      dir = await mkdtemp(join(this.settings.workRoot, `job-${this.key.replace(/\//g, '-')}-`));
      const fifoPath = join(dir, 'fifo');
      await mkfifo(fifoPath);
      let cwd = command.cwd;
      if (cwd === null) {
        cwd = join(dir, 'work');
        await mkdir(cwd);
      }
      fifo = new FifoReader(fifoPath);
      const fifoLines = new LineSplitter(this.settings.maxRecordBytes + 4096, (line) => this.onFifoLine(line), (bytes) =>
        this.sink.log(LOG_ERROR, `[crawlhub runner] dropped a FIFO line of ${bytes} bytes (the limit is ${this.settings.maxRecordBytes} bytes)`),
      );
      const fifoDone = this.drain(fifo.stream, fifoLines);
      this.sources.push(fifo.stream);

      if (this.stopCause === null) {
        const launch = command.launchOf(fifoPath);
        // The job's temporary files (Scrapy's JOBDIR, say) go with its directory, as in the original's per-job containers.
        const tmp = join(dir, 'tmp');
        await mkdir(tmp);
        launch.env = { ...launch.env, TMPDIR: tmp };
        this.sink.log(LOG_INFO, `${this.header}: ${launch.argv.map((a) => JSON.stringify(a)).join(' ')} (in ${cwd})`);
        const result = await this.spawn(launch, cwd);
        started = result.started;
        exit = { code: result.code, signal: result.signal };
      }
      if (this.killTimer) clearTimeout(this.killTimer);

      // Every line the job wrote is read once the last writer closed the pipe.
      fifo.release();
      const outputs = [fifoDone, ...this.outputs];
      if (!(await within(Promise.all(outputs), this.settings.drainMs))) {
        this.sink.log(LOG_WARNING, `[crawlhub runner] the job's output was still open ${this.settings.drainMs} ms after it exited (a child process?): stopping it`);
        this.signal('SIGKILL');
        fifo.destroy();
        for (const s of this.sources) s.destroy();
        await within(Promise.all(outputs), 1_000);
      }
      if (started) {
        if (exit.signal) this.sink.log(LOG_ERROR, `[crawlhub runner] the job's process was killed by ${exit.signal}`);
        else this.sink.log(exit.code === 0 ? LOG_INFO : LOG_ERROR, `[crawlhub runner] the job's process exited with code ${exit.code}`);
      }
    } catch (e) {
      this.sink.log(LOG_ERROR, e instanceof JobNotRunnable ? e.message : `[crawlhub runner] could not run the job: ${(e as Error).message}`);
    } finally {
      if (flushTimer) clearInterval(flushTimer);
      if (this.killTimer) clearTimeout(this.killTimer);
      fifo?.destroy();
      await this.sink.flush();
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
    return this.result(started, exit);
  }

  private result(started: boolean, exit: { code: number | null; signal: NodeJS.Signals | null }): JobRunResult {
    return {
      closeReason: closeReasonOf({ stop: this.stopCause, outcome: this.outcome, exitCode: exit.code, started }),
      exitCode: exit.code,
      signal: exit.signal,
      stop: this.stopCause,
      counts: this.sink.counts,
    };
  }

  /** Spawns the command; resolves when it has exited (or could not start). */
  private spawn(launch: JobLaunch, cwd: string): Promise<{ started: boolean; code: number | null; signal: NodeJS.Signals | null }> {
    return new Promise((resolve) => {
      let child: ChildProcess;
      try {
        child = spawn(launch.argv[0], launch.argv.slice(1), { cwd, env: launch.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      } catch (e) {
        this.sink.log(LOG_ERROR, `[crawlhub runner] could not start the job's command: ${(e as Error).message}`);
        resolve({ started: false, code: null, signal: null });
        return;
      }
      this.child = child;
      for (const [stream, level, name] of [[child.stdout!, LOG_INFO, 'stdout'], [child.stderr!, LOG_ERROR, 'stderr']] as const) {
        const lines = new LineSplitter(this.settings.maxRecordBytes, (line) => {
          const text = line.endsWith('\r') ? line.slice(0, -1) : line;
          if (text.trim() !== '') this.sink.log(level, text);
          this.pressure();
        }, (bytes) => this.sink.log(LOG_ERROR, `[crawlhub runner] dropped a line of ${bytes} bytes on ${name}`));
        this.sources.push(stream);
        this.outputs.push(this.drain(stream, lines));
      }
      child.once('error', (e) => {
        if (child.pid === undefined) {
          this.exited = true;
          this.sink.log(LOG_ERROR, `[crawlhub runner] could not start the job's command: ${e.message}`);
          resolve({ started: false, code: null, signal: null });
        }
      });
      child.once('exit', (code, signal) => {
        this.exited = true;
        resolve({ started: true, code, signal });
      });
    });
  }

  /** Feeds a stream to a splitter; resolves when it ended (or broke). */
  private drain(stream: Readable, lines: LineSplitter): Promise<void> {
    return new Promise((resolve) => {
      stream.on('data', (chunk: Buffer) => lines.push(chunk));
      const finish = () => {
        lines.end();
        resolve();
      };
      stream.once('end', finish);
      stream.once('close', finish);
      stream.once('error', (e) => {
        this.sink.log(LOG_ERROR, `[crawlhub runner] reading the job's output failed: ${e.message}`);
        finish();
      });
    });
  }

  private onFifoLine(line: string): void {
    const m = parseFifoLine(line);
    if (m) {
      switch (m.type) {
        case 'item':
          this.sink.add('items', m.value, m.json);
          break;
        case 'log':
          this.sink.add('logs', m.value, m.json);
          break;
        case 'request':
          this.sink.add('requests', m.value, m.json);
          break;
        case 'stats':
          this.sink.setStats(m.stats);
          break;
        case 'finish':
          this.outcome = m.outcome;
          break;
        case 'invalid':
          this.sink.log(LOG_ERROR, `[crawlhub runner] ignored a FIFO line: ${m.reason}: ${line.slice(0, 200)}`);
          break;
      }
    }
    this.pressure();
  }

  /** Stops reading the job's output while storage is behind; the job then blocks on its writes. */
  private pressure(): void {
    if (this.paused || this.sink.backlog < this.settings.highWater) return;
    this.paused = true;
    for (const s of this.sources) s.pause();
    void this.sink.flush().then(() => {
      this.paused = false;
      for (const s of this.sources) if (!s.destroyed) s.resume();
    });
  }
}

function stopReason(cause: StopCause): string {
  return cause === 'cancelled' ? 'stop requested' : 'the runner is shutting down';
}

/** True when `p` settles within `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
