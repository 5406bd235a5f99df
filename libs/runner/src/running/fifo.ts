import { execFile } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { Socket } from 'node:net';

/** Creates a named pipe (mode 0600) with the system's mkfifo. */
export function mkfifo(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('mkfifo', ['-m', '0600', path], (err, _stdout, stderr) => (err ? reject(new Error(`mkfifo ${path} failed: ${stderr || err.message}`)) : resolve()));
  });
}

/**
 * The reading end of a job's FIFO, opened before the job starts and without blocking:
 * the read side non-blocking (so no thread waits for a writer), then a write side of our
 * own that keeps the pipe from reporting end-of-file before the job has even opened it.
 * Once the job has exited, `release()` closes that write side: the stream then ends as
 * soon as the job's writes are all read, which is how the runner knows it has every line.
 */
export class FifoReader {
  readonly stream: Socket;
  private holdFd: number | null;

  constructor(path: string) {
    const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      this.holdFd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (e) {
      closeSync(readFd);
      throw e;
    }
    this.stream = new Socket({ fd: readFd, readable: true, writable: false });
  }

  /** Lets the stream end once every writer (the job, its children) has closed the pipe. */
  release(): void {
    if (this.holdFd === null) return;
    closeSync(this.holdFd);
    this.holdFd = null;
  }

  destroy(): void {
    this.release();
    this.stream.destroy();
  }
}

/**
 * Splits a byte stream into lines (without their newline). A line longer than
 * `maxLineBytes` is not buffered whole: `onOverlong` is told its size and it is skipped.
 */
export class LineSplitter {
  private carry: Buffer | null = null;
  private skipping = 0;

  constructor(private readonly maxLineBytes: number, private readonly onLine: (line: string) => void, private readonly onOverlong: (bytes: number) => void) {}

  push(chunk: Buffer): void {
    let buf = chunk;
    let start = 0;
    if (this.carry) {
      buf = Buffer.concat([this.carry, chunk]);
      this.carry = null;
    }
    for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
      if (this.skipping) {
        this.onOverlong(this.skipping + nl - start);
        this.skipping = 0;
      } else {
        this.onLine(buf.toString('utf8', start, nl));
      }
      start = nl + 1;
    }
    const rest = buf.length - start;
    if (rest === 0) return;
    if (this.skipping || rest > this.maxLineBytes) {
      this.skipping += rest;
      return;
    }
    this.carry = buf.subarray(start);
  }

  /** The last line, when the stream ended without a newline. */
  end(): void {
    if (this.skipping) this.onOverlong(this.skipping);
    else if (this.carry && this.carry.length) this.onLine(this.carry.toString('utf8'));
    this.carry = null;
    this.skipping = 0;
  }
}
