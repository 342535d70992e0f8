// The stdio FIFOs of one task (or exec process): created before the shim's Create/Exec, read by
// us, written by the shim. Lifecycle: create() → hand `paths` to Create/Exec → releaseKeepers()
// once the shim holds the write ends (after Create for an init process, after Start for an exec;
// at the latest once the process exited) → done() resolves when the output ended → remove() on
// delete. Any failure part way through undoes what was done.
import { mkdirSync, rmSync, unlinkSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import * as sys from '../sys/fs';
import { closeFd, makeFifo, openFifoKeeper, openFifoReader, openFifoWriter } from './fifo';

export interface StdioPaths {
  stdin: string;
  stdout: string;
  stderr: string;
  terminal: boolean;
}

export interface TaskIOOptions {
  stdin?: boolean;
  stdout?: boolean;
  /** Ignored with a terminal: the pty merges stderr into stdout. */
  stderr?: boolean;
  terminal?: boolean;
  /**
   * The directory is shared by many processes' FIFOs (a container's exec processes, each under its
   * own id): remove() unlinks this one's and leaves it. A directory of its own would cost an
   * exec probe a mkdir and a recursive removal, the dearest of its file system calls.
   */
  sharedDir?: boolean;
}

/**
 * Makes `dir` unless it exists; true when made. A shared directory exists at every call but the
 * first: one mkdir(2) failing EEXIST, where a recursive mkdirSync adds a stat(2) and a Stats object
 * (an exec probe's FIFOs, every probe, issue 16).
 */
function makeDir(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return true;
  } catch (err) {
    const code = sys.errnoCode(err);
    if (code === 'EEXIST') return false;
    if (code !== 'ENOENT') throw err;
  }
  return mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined;
}

/** Removes one FIFO; a missing one is fine. unlink(2) alone: rmSync stats the path twice first. */
function removeFifo(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if (sys.errnoCode(err) !== 'ENOENT') throw err;
  }
}

/** Where create() makes process `id`'s FIFO `name` in `dir` (and where attach() finds it again). */
export function fifoPath(dir: string, id: string, name: 'stdin' | 'stdout' | 'stderr'): string {
  return join(dir, `${id}-${name}`);
}

export class TaskIO {
  private keepers: number[] = [];
  private readonly ended: Promise<void>;

  private constructor(
    /** The directory holding this process's FIFOs; remove() deletes it unless it is shared. */
    readonly dir: string,
    private readonly sharedDir: boolean,
    readonly paths: StdioPaths,
    readonly stdin: Writable | undefined,
    readonly stdout: Readable | undefined,
    readonly stderr: Readable | undefined,
  ) {
    const ends = [stdout, stderr].filter((s): s is Readable => s !== undefined).map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.destroyed || s.readableEnded) resolve();
          s.once('close', () => resolve());
          s.once('end', () => resolve());
        }),
    );
    this.ended = Promise.all(ends).then(() => undefined);
  }

  /**
   * Makes `<dir>/<id>-stdin|stdout|stderr` FIFOs and opens our ends. Output is buffered until the
   * caller attaches a consumer (pipe / on('data')); do not pause() before that, or nothing flows.
   */
  static create(dir: string, id: string, opts: TaskIOOptions): TaskIO {
    const terminal = opts.terminal ?? false;
    const want = { stdin: opts.stdin ?? false, stdout: opts.stdout ?? true, stderr: (opts.stderr ?? true) && !terminal };
    const undo: Array<() => void> = [];
    try {
      if (makeDir(dir) && !opts.sharedDir) {
        undo.push(() => rmSync(dir, { recursive: true, force: true }));
      }
      const paths: StdioPaths = { stdin: '', stdout: '', stderr: '', terminal };
      const keepers: number[] = [];
      const openReader = (name: 'stdout' | 'stderr'): Socket => {
        const path = fifoPath(dir, id, name);
        makeFifo(path);
        undo.push(() => removeFifo(path));
        const reader = openFifoReader(path);
        undo.push(() => reader.destroy());
        const keeper = openFifoKeeper(path);
        keepers.push(keeper);
        undo.push(() => closeFd(keeper));
        paths[name] = path;
        return reader;
      };
      let stdin: Socket | undefined;
      if (want.stdin) {
        paths.stdin = fifoPath(dir, id, 'stdin');
        makeFifo(paths.stdin);
        const stdinPath = paths.stdin;
        undo.push(() => removeFifo(stdinPath));
        stdin = openFifoWriter(paths.stdin);
        const opened = stdin;
        undo.push(() => opened.destroy());
      }
      const stdout = want.stdout ? openReader('stdout') : undefined;
      const stderr = want.stderr ? openReader('stderr') : undefined;
      const io = new TaskIO(dir, opts.sharedDir ?? false, paths, stdin, stdout, stderr);
      io.keepers = keepers;
      return io;
    } catch (err) {
      for (const step of undo.reverse()) step();
      throw err;
    }
  }

  /**
   * Re-opens existing FIFOs after a restart. The shim holds the write ends while the process's
   * output lasts, so no keepers are needed; it closes them once that output ended, which may have
   * happened while nobody read. Linux hides the hangup from a reader that opened a FIFO with no
   * writer until a writer has come and gone (fs/pipe.c), so one comes and goes here: EOF then
   * shows as soon as no writer is left, not never.
   */
  static attach(dir: string, paths: StdioPaths, opts: Pick<TaskIOOptions, 'sharedDir'> = {}): TaskIO {
    const opened: Socket[] = [];
    try {
      const open = (path: string): Socket | undefined => {
        if (!path) return undefined;
        const reader = openFifoReader(path);
        opened.push(reader);
        closeFd(openFifoKeeper(path));
        return reader;
      };
      const stdout = open(paths.stdout);
      const stderr = open(paths.stderr);
      const stdin = paths.stdin ? openFifoWriter(paths.stdin) : undefined;
      return new TaskIO(dir, opts.sharedDir ?? false, paths, stdin, stdout, stderr);
    } catch (err) {
      for (const s of opened) s.destroy();
      throw err;
    }
  }

  /**
   * Drops our placeholder write ends: from now on EOF means the process side closed. Too early
   * (before the shim opened its ends) the readers see EOF at once and the shim's open then blocks.
   */
  releaseKeepers(): void {
    for (const fd of this.keepers.splice(0)) closeFd(fd);
  }

  /** Resolves when stdout and stderr have both reached EOF (or were closed). */
  done(): Promise<void> {
    return this.ended;
  }

  /** Closes our ends (readers stop, stdin gets EOF). Safe to call twice. */
  close(): void {
    this.releaseKeepers();
    this.stdin?.destroy();
    this.stdout?.destroy();
    this.stderr?.destroy();
  }

  /** close() plus removing the FIFOs, and their directory unless it is shared. */
  remove(): void {
    this.close();
    if (!this.sharedDir) {
      rmSync(this.dir, { recursive: true, force: true });
      return;
    }
    for (const path of [this.paths.stdin, this.paths.stdout, this.paths.stderr]) if (path) removeFifo(path);
  }
}
