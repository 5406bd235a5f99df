import { LogEntry, logLevel } from 'kafkajs';
import { kafkaLogLines } from './kafka-log-lines';

const entry = (level: logLevel, label: string, namespace: string, message: string): LogEntry => ({ namespace, level, label, log: { timestamp: 't', message, error: 'e' } });

describe('kafkaLogLines', () => {
  const lines: [logLevel, string][] = [];
  const logAt = (configured: logLevel) => kafkaLogLines((level, line) => lines.push([level, line]))(configured);
  beforeEach(() => (lines.length = 0));

  it('leaves out the error responses a connection logs, at level error', () => {
    logAt(logLevel.ERROR)(entry(logLevel.ERROR, 'ERROR', 'Connection', 'Response GroupCoordinator(key: 10, version: 2)'));
    expect(lines).toEqual([]);
  });

  it('keeps them as debug lines at level debug', () => {
    logAt(logLevel.DEBUG)(entry(logLevel.ERROR, 'ERROR', 'Connection', 'Response ListOffsets(key: 2, version: 3)'));
    expect(lines).toHaveLength(1);
    expect(lines[0][0]).toBe(logLevel.DEBUG);
    expect(JSON.parse(lines[0][1])).toMatchObject({ level: 'DEBUG', message: '[Connection] Response ListOffsets(key: 2, version: 3)', error: 'e' });
  });

  it('writes every other line as kafkajs would', () => {
    logAt(logLevel.ERROR)(entry(logLevel.ERROR, 'ERROR', 'Consumer', 'Crash: KafkaJSNumberOfRetriesExceeded'));
    expect(lines).toHaveLength(1);
    expect(lines[0][0]).toBe(logLevel.ERROR);
    expect(JSON.parse(lines[0][1])).toMatchObject({ level: 'ERROR', message: '[Consumer] Crash: KafkaJSNumberOfRetriesExceeded' });
  });
});
