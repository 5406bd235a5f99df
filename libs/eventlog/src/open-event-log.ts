import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlhubConfig } from '@crawlhub/config';
import type * as KafkaAdapter from './adapters/kafka/kafka-event-log';
import { SqliteEventLog } from './adapters/sqlite/sqlite-event-log';
import { EventLog } from './event-log.port';
import { NamespacedEventLog } from './namespaced-event-log';

/** Picks the event log adapter from config: the embedded SQLite file or Kafka. */
export function openEventLog(config: CrawlhubConfig, clientId = 'crawlhub'): EventLog {
  let log: EventLog;
  if (config.eventLog.kind === 'kafka') {
    // kafkajs speaks only of failures, unless the platform logs at debug: then of every request.
    const logLevel = config.logLevel === 'debug' ? 'debug' : 'error';
    // Loaded only here: a process on the embedded log never loads kafkajs (143 modules).
    const { KafkaEventLog } = require('./adapters/kafka/kafka-event-log') as typeof KafkaAdapter;
    log = new KafkaEventLog({ brokers: config.eventLog.brokers, clientId, partitions: config.eventLog.partitions, logLevel });
  } else {
    mkdirSync(config.dataDir, { recursive: true });
    log = new SqliteEventLog({ file: join(config.dataDir, 'eventlog.db'), partitions: config.eventLog.partitions });
  }
  return config.eventLog.namespace ? new NamespacedEventLog(log, config.eventLog.namespace) : log;
}
