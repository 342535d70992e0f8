// Forwards the shim's `log` FIFO to berth's logger, one line per entry, tagged with the task.
// Opened O_RDWR so the read end never sees EOF between shim writes or before the shim opens it;
// it is read through a net.Socket so no thread-pool thread waits on it.
import { constants, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { makeFifo } from '../../cio/fifo';
import type { Logger, LogLevel } from '../../log/logger';
import { errnoCode } from '../../sys/fs';

// The runc shim logs with logrus' text format: time="..." level=info msg="..." key=value.
const LEVEL = /\blevel=(\w+)/;
const MSG = /\bmsg="((?:[^"\\]|\\.)*)"/;

function levelOf(line: string): LogLevel {
  const level = LEVEL.exec(line)?.[1];
  switch (level) {
    case 'trace':
    case 'debug':
    case 'info':
    case 'warn':
    case 'error':
      return level;
    case 'warning':
      return 'warn';
    case 'fatal':
    case 'panic':
      return 'error';
    default:
      return 'info';
  }
}

export class ShimLog {
  private readonly socket: Socket;
  private partial = '';

  private constructor(path: string, log: Logger) {
    const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
    this.socket = new Socket({ fd, readable: true, writable: false });
    this.socket.setEncoding('utf8');
    this.socket.on('error', () => undefined);
    this.socket.on('data', (chunk: string) => {
      const lines = (this.partial + chunk).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        const msg = MSG.exec(line)?.[1]?.replace(/\\"/g, '"') ?? line;
        log[levelOf(line)](`shim: ${msg}`, { shimLine: line });
      }
    });
  }

  /** Makes `path` (a bundle's log FIFO, before its shim starts) and forwards it to `log`. */
  static create(path: string, log: Logger): ShimLog {
    makeFifo(path, 0o700);
    try {
      return new ShimLog(path, log);
    } catch (err) {
      rmSync(path, { force: true });
      throw err;
    }
  }

  /**
   * Forwards an existing log FIFO (restart recovery); undefined when the bundle has none: its task
   * joined a shim started in another bundle, which logs there.
   */
  static reopen(path: string, log: Logger): ShimLog | undefined {
    try {
      return new ShimLog(path, log);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return undefined;
      throw err;
    }
  }

  close(): void {
    this.socket.destroy();
  }
}
