import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { CrawlhubConfig } from '@crawlhub/config';

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
export function logColours(config: Pick<CrawlhubConfig, 'noColor'>, streams: { isTTY?: boolean }[] = [process.stdout, process.stderr]): boolean {
  return !config.noColor && streams.every((s) => s.isTTY === true);
}

/**
 * The logger every Nest app of the process gets (NestFactory makes it the one behind
 * `new Logger(context)` too): LOG_LEVEL's levels, coloured only on a terminal (logColours).
 * A worker thread's stdout is never a terminal, so its parent decides and passes `colours`.
 */
export function nestLogger(config: CrawlhubConfig, colours = logColours(config)): ConsoleLogger {
  return new ConsoleLogger({ logLevels: nestLogLevels(config), colors: colours });
}
