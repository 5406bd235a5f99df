import { logCreator, LogEntry, logLevel } from 'kafkajs';

/**
 * kafkajs' log lines (its JSON console format), except the error responses its connections
 * log: the request that got one is retried or fails to its caller, which decides what to
 * say. Those lines come with every start against a fresh broker ("The group coordinator is
 * not available", "not the leader for that topic-partition"), so at level error they are
 * left out and at level debug they are debug lines.
 */
export const kafkaLogLines =
  (write: (level: logLevel, line: string) => void = writeToConsole): logCreator =>
  (configured) =>
  (entry: LogEntry) => {
    const answered = entry.level === logLevel.ERROR && entry.namespace === 'Connection' && entry.log.message.startsWith('Response ');
    if (answered && configured < logLevel.DEBUG) return;
    const [level, label] = answered ? [logLevel.DEBUG, 'DEBUG'] : [entry.level, entry.label];
    const prefix = entry.namespace ? `[${entry.namespace}] ` : '';
    write(level, JSON.stringify({ level: label, ...entry.log, message: `${prefix}${entry.log.message}` }));
  };

function writeToConsole(level: logLevel, line: string): void {
  if (level === logLevel.ERROR) console.error(line);
  else if (level === logLevel.WARN) console.warn(line);
  else console.log(line);
}
