// The CRI side of the streaming server: exec through the container's shim (its process spec with
// other args), attach to the container's own stdio, port-forward into the pod's netns.
import { execSetup, runningTask } from './exec_process';
import { closeSync, constants, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { makeFifo } from '../cio/fifo';
import { fifoPath, TaskIO } from '../cio/task_io';
import { failedPrecondition, wrap } from '../errdefs/errors';
import { containerIOs } from './container_io';
import { portForwardInNetns, type AttachOptions, type ExecOptions, type PortForwardOptions, type StreamingRuntime } from './streaming';
import type { CriTask } from './tasks/types';
import type { Container } from './store/container';
import type { RuntimeDeps } from './server/service';
import { silentLogger, type Logger } from '../log/logger';
import { whenSettled } from './util/settle_listeners';

const SIGKILL = 9;


/** Applies each resize; never rejects (it runs unawaited): a process already gone is no error. */
async function forwardResizes(opts: { resize?: AsyncIterable<{ width: number; height: number }> }, apply: (w: number, h: number) => Promise<void>): Promise<void> {
  if (!opts.resize) return;
  try {
    for await (const size of opts.resize) await apply(size.width, size.height).catch(() => undefined);
  } catch {
    // apply threw synchronously (the exec is not registered any more) or the stream failed
  }
}

/**
 * The process's stdin FIFO, and the copy of the client's stdin into it. Our end is write-only, as
 * containerd's client's is: a read-write end would itself count as a writer, so the process would
 * never see EOF. A blocking write-only open would park a libuv pool thread until the shim opens its
 * read end (many such execs stall all file I/O), so a reader of our own comes first: with it, the
 * write-only open does not wait (O_NONBLOCK), and what the client sends before the shim reads stays
 * in the pipe instead of being lost. That reader stays for the whole session, never reading: the
 * shim opens its own read end in the background, maybe after Start answered, and with no reader at
 * all a write fails (EPIPE: under load the input past the first 64 KiB was lost) and, once our writer
 * is closed too, the kernel frees the pipe with what it held. Only writers decide EOF, so it does
 * not delay the process's. The shim holds a write end of its own (clients may come and go): once our
 * data is in and our end closed, CloseIO makes it close that one, and the process reads EOF.
 */
export class ExecStdin {
  /** Set once the copy runs: it owns the write fd from then on. */
  private socket: Socket | undefined;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    private readonly placeholder: number,
  ) {}

  /** Makes the FIFO at `path` (abandon() removes it) and opens our ends. */
  static create(path: string): ExecStdin {
    makeFifo(path);
    let placeholder: number | undefined;
    try {
      placeholder = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      return new ExecStdin(path, openSync(path, constants.O_WRONLY | constants.O_NONBLOCK), placeholder);
    } catch (err) {
      if (placeholder !== undefined) closeSync(placeholder);
      rmSync(path, { force: true });
      throw err;
    }
  }

  /** Copies `from` into the FIFO; when `from` ends, closes stdin after `started`. */
  forward(from: Readable, started: Promise<void>, closeStdin: () => Promise<void>): void {
    const to = new Socket({ fd: this.fd, readable: false, writable: true });
    this.socket = to;
    to.on('error', () => from.unpipe(to));
    const closed = new Promise<void>((resolve) => to.once('close', () => resolve()));
    to.once('finish', () => to.destroy()); // a FIFO has no half-close: closing the fd says it
    from.pipe(to);
    void Promise.all([started, closed])
      .then(closeStdin)
      .catch(() => undefined); // the process exited or never started
  }

  /** Closes our ends and removes the FIFO, once the session is over. */
  abandon(): void {
    closeSync(this.placeholder);
    if (this.socket) this.socket.destroy();
    else closeSync(this.fd);
    rmSync(this.path, { force: true });
  }
}

export class CriStreamingRuntime implements StreamingRuntime {
  constructor(
    private readonly rt: RuntimeDeps,
    private readonly logger: Logger = silentLogger,
  ) {}

  async exec(opts: ExecOptions): Promise<{ exitCode: number }> {
    const { container, task } = runningTask(this.rt, opts.containerId);
    const { execId, dir, fifoId, process } = execSetup(container, opts.cmd, opts.tty);
    const log = this.logger;
    log.debug('exec session', { containerId: container.id, execId, aborted: opts.signal.aborted });
    // Output FIFOs whatever the client asked for, as containerd's NewExecIO makes them: given an
    // empty name the shim fails the Start after the command ran, or, with stdin alone, runs
    // `runc exec --detach` that waits for the command's end while the command waits for stdin the
    // shim copies only after runc returns, wedging the pod's shim for every later exec.
    // Output nobody asked for is read and dropped.
    const io = TaskIO.create(dir, fifoId, { stdout: true, stderr: !opts.tty, terminal: opts.tty, sharedDir: true });
    let stdin: ExecStdin | undefined;
    let ioInUse: Promise<unknown> = Promise.resolve();
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    try {
      if (opts.stdin) {
        stdin = ExecStdin.create(fifoPath(dir, fifoId, 'stdin'));
        stdin.forward(opts.stdin, started, () => task.closeStdin(execId));
      }
      if (opts.stdout) io.stdout?.pipe(opts.stdout, { end: false });
      else io.stdout?.resume();
      if (opts.stderr) io.stderr?.pipe(opts.stderr, { end: false });
      else io.stderr?.resume();
      // The client may leave at any point, also before the exec is registered with its task
      // (killExec then throws at once, in an event listener: that would crash berthd) or
      // between its creation and its start: onStarted kills it then.
      let execStarted = false;
      const onAbort = () => {
        log.debug('exec abort', { execId });
        try {
          void task.killExec(execId, SIGKILL).catch((err: unknown) => log.debug('exec kill failed', { execId, error: (err as Error).message }));
        } catch {
          // not registered (yet, or any more)
        }
        // Nobody reads the output any more: our ends close, as containerd's copy to a client that
        // went away stops, so what the exec left running (`cat /dev/zero &`) gets EPIPE instead of
        // being read for ever, and the session ends. Only once started: the shim opens the write
        // ends at the start, which must find a reader.
        if (execStarted) io.close();
      };
      opts.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const exit = await task.exec(
          {
            execId,
            process,
            stdio: { ...io.paths, stdin: stdin?.path ?? '' },
          },
          {
            outputDone: io.done(),
            // A `runc exec` that hangs ends the session with its client, not when runc answers.
            startSignal: opts.signal,
            onStartAbandoned: (settled) => (ioInUse = settled),
            onStarted: () => {
              log.debug('exec started', { execId, aborted: opts.signal.aborted });
              execStarted = true;
              io.releaseKeepers();
              markStarted();
              if (opts.signal.aborted) onAbort();
              void forwardResizes(opts, (w, h) => task.resizePty(execId, w, h));
            },
          },
        );
        log.debug('exec exited', { execId, exitCode: exit.exitStatus });
        io.releaseKeepers();
        await io.done();
        log.debug('exec output done', { execId });
        return { exitCode: exit.exitStatus };
      } catch (err) {
        log.debug('exec failed', { execId, error: (err as Error).message });
        throw wrap(err, 'failed to exec in container'); // containerd's streaming runtime's words
      } finally {
        markStarted();
        opts.signal.removeEventListener('abort', onAbort);
      }
    } finally {
      opts.stdin?.unpipe();
      const remove = () => {
        stdin?.abandon();
        io.remove();
      };
      void ioInUse.then(remove, remove);
    }
  }

  /**
   * As containerd's ContainerIO.Attach: the session ends when the container exits (after its output
   * is drained), when the client goes away, or when the client's stdin ends (a detach, e.g. the
   * ctrl-p ctrl-q escape) unless that closes a stdin_once container's stdin, whose output is then
   * followed to the end. A client's stdin is ignored for a container created without one.
   */
  async attach(opts: AttachOptions): Promise<void> {
    const { container, task } = runningTask(this.rt, opts.containerId);
    const cio = containerIOs(this.rt.containers).get(container.id);
    if (!cio) throw failedPrecondition(`container ${container.id}: its output is not attached to berthd`);
    // Back-pressure: a client that has not taken what we wrote holds the container's output
    // until it has, rather than berthd buffering a chatty container's output without bound.
    const releases = new Set<() => void>();
    const unsubscribe = cio.addOutputListener((stream, chunk) => {
      const target = stream === 'stdout' || opts.tty ? opts.stdout : opts.stderr;
      if (!target || target.destroyed || target.writableEnded || target.write(chunk)) return;
      const hold = cio.holdOutput();
      const release = () => {
        releases.delete(release);
        target.removeListener('drain', release);
        target.removeListener('close', release);
        hold();
      };
      releases.add(release);
      target.once('drain', release);
      target.once('close', release);
    });
    let stopWaitingForExit = () => {};
    const ends: Promise<void>[] = [
      // Not task.exited.then(): that reaction would keep this session (its streams and socket)
      // until the container exits, however long after the client left.
      new Promise<void>((resolve, reject) => {
        stopWaitingForExit = whenSettled(task.exited, () => cio.drained().then(resolve, reject), reject);
      }),
      new Promise<void>((resolve) => opts.signal.addEventListener('abort', () => resolve(), { once: true })),
    ];
    if (opts.stdin && cio.stdin) ends.push(this.forwardAttachStdin(container, task, opts.stdin, cio.stdin, opts.tty));
    else opts.stdin?.resume(); // the container has no stdin: drop what the client types
    void forwardResizes(opts, (w, h) => task.resizePty('', w, h));
    try {
      await Promise.race(ends);
    } finally {
      stopWaitingForExit();
      unsubscribe();
      for (const release of releases) release();
    }
  }

  /** Copies a client's stdin into the container's; resolves when the client detached (never for stdin_once). */
  private forwardAttachStdin(container: Container, task: CriTask, from: Readable, to: Writable, tty: boolean): Promise<void> {
    from.on('data', (chunk: Buffer) => {
      // A container that does not read its stdin makes the client wait, not berthd buffer.
      if (to.writableEnded || to.destroyed || to.write(chunk)) return;
      from.pause();
      to.once('drain', () => from.resume());
    });
    return new Promise<void>((resolve) => {
      from.once('end', () => {
        // stdin_once: the container's stdin closes when the first attach's stdin ends. Our end of the
        // FIFO is a writer too, so it is closed (once flushed) before CloseIO makes the shim close
        // its own. As in containerd, not with a tty: a terminal's input cannot be half-closed.
        if (!container.metadata.config.stdin_once || tty) return resolve();
        if (to.writableEnded) return;
        to.end(() => {
          to.destroy();
          void task.closeStdin('').catch(() => undefined);
        });
      });
    });
  }

  async portForward(opts: PortForwardOptions): Promise<void> {
    const sandbox = this.rt.sandboxes.get(opts.sandboxId);
    if (sandbox.status.state !== 'ready') throw failedPrecondition(`sandbox ${sandbox.id} is not ready`);
    await portForwardInNetns(sandbox.id, sandbox.metadata.netnsPath, opts.port, opts.stream, opts.signal);
  }
}
