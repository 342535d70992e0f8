// A running container's stdio as berth holds it: the task's FIFOs (TaskIO), the CRI log file the
// output is copied into, and any extra readers (attach). Kept per container ID in a registry so
// ReopenContainerLog and attach reach the same object StartContainer made.
//
// FIFOs are made at StartContainer, not CreateContainer as containerd does: a created container
// then owns no open file descriptors, and a start that fails has exactly one place to undo them.
import type { Readable, Writable } from 'node:stream';
import { fifoPath, TaskIO, type StdioPaths } from '../cio/task_io';
import { failedPrecondition, messageOf } from '../errdefs/errors';
import { silentLogger, type Logger } from '../log/logger';
import { CriLogFile, redirectToLog, type LogStream } from './io/log_writer';

export interface ContainerIOOptions {
  /**
   * Directory for the FIFOs: the container's state dir, which exists already and goes with the
   * container (a directory of their own cost every start a mkdir, issue 16), so removing the FIFOs
   * leaves it.
   */
  dir: string;
  id: string;
  stdin: boolean;
  tty: boolean;
  /** The CRI log file; '' discards the output (kubelet always sets one). */
  logPath: string;
  /** The pod's log directory, below whose parent no symlink is followed to the log file. */
  logDirectory?: string;
  /** max_container_log_line_size; <= 0 means no limit. */
  maxLineSize: number;
  /** Where failed log writes are reported (rate-limited). */
  logger?: Logger;
}

export type OutputListener = (stream: LogStream, chunk: Buffer) => void;

export class ContainerIO {
  private readonly listeners = new Set<OutputListener>();
  private readonly drainedAll: Promise<void>;
  /** Attach clients currently holding the output (holdOutput). */
  private holds = 0;

  private constructor(
    private readonly io: TaskIO,
    private readonly log: CriLogFile | undefined,
    maxLineSize: number,
    logger: Logger,
  ) {
    const copies: Promise<void>[] = [io.done()];
    for (const [name, source] of this.outputs()) {
      source.on('data', (chunk: Buffer) => {
        for (const l of this.listeners) {
          try {
            l(name, chunk);
          } catch (err) {
            // One broken attach session must not stop the copy into the log (or take berthd down).
            logger.warn('output listener failed; detaching it', { error: messageOf(err) });
            this.listeners.delete(l);
          }
        }
      });
      // Paused for the rest of a turn that brought much output through the holds an attach client
      // also takes, so neither resumes what the other paused.
      if (log) copies.push(redirectToLog(source, log, name, maxLineSize, () => this.holdOutput()));
      else source.resume(); // nobody keeps the output, but the process must never block on a full pipe
    }
    this.drainedAll = Promise.all(copies).then(() => undefined);
  }

  /** Makes the FIFOs (and opens the log file); undoes both when either fails. */
  static create(opts: ContainerIOOptions): ContainerIO {
    const io = TaskIO.create(opts.dir, opts.id, { stdin: opts.stdin, stdout: true, stderr: true, terminal: opts.tty, sharedDir: true });
    try {
      const log = opts.logPath === '' ? undefined : new CriLogFile(opts.logPath, { logger: opts.logger, logDirectory: opts.logDirectory });
      return new ContainerIO(io, log, opts.maxLineSize, opts.logger ?? silentLogger);
    } catch (err) {
      io.remove();
      throw err;
    }
  }

  /**
   * After a berthd restart: reopens the FIFOs a live task still writes (TaskIO.create's names:
   * `<dir>/<id>-stdout` ...) and resumes copying into the log, appending.
   */
  static attach(opts: ContainerIOOptions): ContainerIO {
    const paths: StdioPaths = {
      stdin: opts.stdin ? fifoPath(opts.dir, opts.id, 'stdin') : '',
      stdout: fifoPath(opts.dir, opts.id, 'stdout'),
      stderr: opts.tty ? '' : fifoPath(opts.dir, opts.id, 'stderr'),
      terminal: opts.tty,
    };
    const io = TaskIO.attach(opts.dir, paths, { sharedDir: true });
    try {
      // The task runs on and writes its FIFOs: keep draining even when the log cannot be opened
      // now (a full disk), retrying the open as output arrives.
      const log = opts.logPath === '' ? undefined : new CriLogFile(opts.logPath, { logger: opts.logger, logDirectory: opts.logDirectory, mustOpen: false });
      return new ContainerIO(io, log, opts.maxLineSize, opts.logger ?? silentLogger);
    } catch (err) {
      io.close();
      throw err;
    }
  }

  /** What the shim's Create gets. */
  get paths(): StdioPaths {
    return this.io.paths;
  }

  get stdin(): Writable | undefined {
    return this.io.stdin;
  }

  private outputs(): Array<[LogStream, Readable]> {
    const out: Array<[LogStream, Readable]> = [];
    if (this.io.stdout) out.push(['stdout', this.io.stdout]);
    if (this.io.stderr) out.push(['stderr', this.io.stderr]);
    return out;
  }

  /** After the shim's Create: EOF from now on means the container closed its side. */
  releaseKeepers(): void {
    this.io.releaseKeepers();
  }

  /** Output from now on also goes to `listener` (attach); returns the unsubscribe. */
  addOutputListener(listener: OutputListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Stops reading the container's output until the returned release is called (idempotent): an
   * attach client that fell behind holds the output, as containerd's attach does, so what it has
   * not taken yet never piles up in berthd; the process blocks on a full pipe meanwhile.
   */
  holdOutput(): () => void {
    if (this.holds++ === 0) for (const [, source] of this.outputs()) source.pause();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) for (const [, source] of this.outputs()) source.resume();
    };
  }

  /** Kubelet rotated the log file: write to a new file at the same path. */
  reopenLog(): void {
    if (!this.log) throw failedPrecondition('container has no log path to reopen');
    this.log.reopen();
  }

  /** Resolves when stdout and stderr have ended and everything read reached the log. */
  drained(): Promise<void> {
    return this.drainedAll;
  }

  /** Closes the FIFOs and the log file; idempotent. */
  close(): void {
    this.io.close();
    this.log?.close();
    this.listeners.clear();
  }

  /** close() plus removing the FIFOs (their directory is the container's). */
  remove(): void {
    this.close();
    this.io.remove();
  }
}

const registries = new WeakMap<object, Map<string, ContainerIO>>();

/** The live ContainerIOs of one runtime (keyed by its container store), by container ID. */
export function containerIOs(owner: object): Map<string, ContainerIO> {
  let map = registries.get(owner);
  if (!map) registries.set(owner, (map = new Map()));
  return map;
}
