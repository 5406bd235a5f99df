import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { CrawlhubConfig } from '@crawlhub/config';
import { currentCorrelationId } from '@crawlhub/contracts';

/** Nest's own log levels for LOG_LEVEL (route-mapping chatter only at debug). */
export function nestLogLevels(config: CrawlhubConfig): LogLevel[] {
  switch (config.logLevel) {
    case 'debug':
      return ['error', 'warn', 'log', 'debug', 'verbose'];
    case 'info':
    case 'warn':
      return ['error', 'warn'];
    case 'error':
      return ['error'];
  }
}

/**
 * Whether log lines may carry colour codes: only when both stdout and stderr (Nest writes
 * errors to stderr) are terminals and NO_COLOR (https://no-color.org) is unset or empty.
 * Nest's default logger colours whenever NO_COLOR is unset, so `npm start > platform.log`
 * filled the file with escape codes.
 */
export function logColours(env: NodeJS.ProcessEnv = process.env, streams: { isTTY?: boolean }[] = [process.stdout, process.stderr]): boolean {
  return !env.NO_COLOR && streams.every((s) => s.isTTY === true);
}

/**
 * The logger every Nest app of the process gets (NestFactory makes it the one behind
 * `new Logger(context)` too): LOG_LEVEL's levels, coloured only on a terminal (logColours).
 * A worker thread's stdout is never a terminal, so its parent decides and passes `colours`.
 */
export function nestLogger(config: CrawlhubConfig, colours = logColours()): ConsoleLogger {
  if (config.logFormat === 'json') return new JsonLogger({ logLevels: nestLogLevels(config), json: true });
  return new ConsoleLogger({ logLevels: nestLogLevels(config), colors: colours });
}

/**
 * LOG_FORMAT=json: Nest's JSON lines (level, pid, timestamp, context, message), with the
 * correlation id of the request being handled when there is one (the id its events carry).
 */
class JsonLogger extends ConsoleLogger {
  protected override getJsonLogObject(message: unknown, options: Parameters<ConsoleLogger['getJsonLogObject']>[1]): ReturnType<ConsoleLogger['getJsonLogObject']> {
    const line = super.getJsonLogObject(message, options);
    const correlationId = currentCorrelationId();
    return correlationId === undefined ? line : Object.assign(line, { correlationId });
  }
}

/** One access log line (LOG_FORMAT=json) in the shape of Nest's JSON lines, newline included. */
export function accessLogLine(fields: Record<string, unknown>): string {
  return `${JSON.stringify({ level: 'log', pid: process.pid, timestamp: Date.now(), context: 'http', message: 'request', ...fields })}\n`;
}
