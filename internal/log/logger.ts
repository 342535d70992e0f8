// JSON-lines logger: one object per line with time, level, msg and the IDs involved.
import { writeToStderr } from './stderr_sink';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

const RANK: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50 };

export interface Logger {
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds these fields to every line (e.g. { podSandboxId }). */
  with(fields: LogFields): Logger;
}

export interface LoggerOptions {
  level: LogLevel;
  write?: (line: string) => void;
}

export function createLogger(opts: LoggerOptions, base: LogFields = {}): Logger {
  const min = RANK[opts.level];
  const write = opts.write ?? writeToStderr;
  const emit = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    if (RANK[level] < min) return;
    const entry: LogFields = { time: new Date().toISOString(), level, msg, ...base, ...fields };
    for (const [k, v] of Object.entries(entry)) if (v instanceof Error) entry[k] = v.message;
    write(JSON.stringify(entry) + '\n');
  };
  return {
    trace: emit('trace'),
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    with: (fields) => createLogger(opts, { ...base, ...fields }),
  };
}

/** For tests and library callers that do not care about logs. */
export const silentLogger: Logger = createLogger({ level: 'error', write: () => undefined });
