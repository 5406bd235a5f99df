import { LogLevel } from '@nestjs/common';
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
