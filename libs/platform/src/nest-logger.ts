import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { CrawlhubConfig } from '@crawlhub/config';
import { currentCorrelationId } from '@crawlhub/contracts';

/** Nest's log levels for LOG_LEVEL: `info` shows our `log` lines (Nest's own start-up chatter only at debug, see PlatformLogger). */
export function nestLogLevels(config: Pick<CrawlhubConfig, 'logLevel'>): LogLevel[] {
  switch (config.logLevel) {
    case 'debug':
      return ['error', 'warn', 'log', 'debug', 'verbose'];
    case 'info':
      return ['error', 'warn', 'log'];
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

/** Nest's own contexts, whose `log` lines (modules initialised, routes mapped, app started) are start-up chatter. */
const NEST_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication', 'NestApplicationContext']);

/** Nest's ConsoleLogger that keeps Nest's own `log` chatter for LOG_LEVEL=debug, so `info` shows the platform's lines only. */
class PlatformLogger extends ConsoleLogger {
  constructor(private readonly nestChatter: boolean, colours: boolean, levels: LogLevel[]) {
    super({ logLevels: levels, colors: colours });
  }

  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest.length > 0 ? rest[rest.length - 1] : this.context;
    if (!this.nestChatter && typeof context === 'string' && NEST_CONTEXTS.has(context)) return;
    super.log(message, ...rest);
  }
}

/**
 * The logger every Nest app of the process gets (NestFactory makes it the one behind
 * `new Logger(context)` too): LOG_LEVEL's levels, coloured only on a terminal (logColours).
 * A worker thread's stdout is never a terminal, so its parent decides and passes `colours`.
 */
export function nestLogger(config: Pick<CrawlhubConfig, 'logLevel' | 'noColor' | 'logFormat'>, colours = logColours(config)): ConsoleLogger {
  if (config.logFormat === 'json') return new JsonLogger({ logLevels: nestLogLevels(config), json: true });
  return new PlatformLogger(config.logLevel === 'debug', colours, nestLogLevels(config));
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
  // eslint-disable-next-line no-restricted-properties -- a log line's own time, as Nest's lines have it.
  return `${JSON.stringify({ level: 'log', pid: process.pid, timestamp: Date.now(), context: 'http', message: 'request', ...fields })}\n`;
}
