// A StreamingRuntime test double that does real work on the host: exec runs the command as a
// child process (no pty: with tty, stderr is merged into stdout), attach behaves like attaching
// to a `cat` container, port-forward uses the real portForwardInNetns on the host network.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { notFound } from '../../../internal/errdefs/errors';
import {
  portForwardInNetns,
  type AttachOptions,
  type ExecOptions,
  type PortForwardOptions,
  type StreamingRuntime,
  type TerminalSize,
} from '../../../internal/cri/streaming/runtime';

/** Copies src into dst without ending dst; resolves once every byte was accepted by dst. */
function forward(src: Readable, dst: Writable | undefined): Promise<void> {
  return new Promise((resolve) => {
    src.on('data', (chunk: Buffer) => {
      if (dst && !dst.write(chunk)) {
        src.pause();
        dst.once('drain', () => src.resume());
      }
    });
    src.once('end', () => (dst ? dst.write(Buffer.alloc(0), () => resolve()) : resolve()));
  });
}

export class HostProcessRuntime implements StreamingRuntime {
  /** Every child started, for the tests to check they are gone. */
  readonly children: ChildProcess[] = [];
  /** Resizes the runtime received, in order. */
  readonly resizes: TerminalSize[] = [];
  /** Wait for this many resizes before starting a tty command (client-go sends the size first). */
  resizesBeforeStart = 0;
  private spawnWaiters: ((child: ChildProcess) => void)[] = [];

  /** Resolves with the next child process this runtime starts. */
  nextSpawn(): Promise<ChildProcess> {
    return new Promise((resolve) => this.spawnWaiters.push(resolve));
  }

  async exec(opts: ExecOptions): Promise<{ exitCode: number }> {
    await this.takeResizes(opts);
    const exitCode = await this.run(opts.cmd, opts);
    return { exitCode };
  }

  async attach(opts: AttachOptions): Promise<void> {
    if (opts.containerId === 'missing') throw notFound(`container "${opts.containerId}" not found`);
    await this.takeResizes(opts);
    await this.run(['cat'], opts);
  }

  portForward(opts: PortForwardOptions): Promise<void> {
    return portForwardInNetns(opts.sandboxId, '', opts.port, opts.stream, opts.signal);
  }

  private async takeResizes(opts: AttachOptions): Promise<void> {
    if (!opts.tty || !opts.resize) return;
    const iterator = opts.resize[Symbol.asyncIterator]();
    for (let i = 0; i < this.resizesBeforeStart; i++) {
      const next = await iterator.next();
      if (next.done) return;
      this.resizes.push(next.value);
      opts.stdout?.write(`resize ${next.value.width}x${next.value.height}\n`);
    }
  }

  private run(cmd: string[], opts: AttachOptions): Promise<number> {
    const child = spawn(cmd[0], cmd.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    this.children.push(child);
    const onAbort = () => child.kill('SIGKILL');
    opts.signal.addEventListener('abort', onAbort, { once: true });
    child.stdin.on('error', () => undefined); // EPIPE when the command does not read stdin
    if (opts.stdin) opts.stdin.pipe(child.stdin);
    else child.stdin.end();
    const copies = Promise.all([forward(child.stdout, opts.stdout), forward(child.stderr, opts.tty ? opts.stdout : opts.stderr)]);
    const waiter = this.spawnWaiters.shift();
    return new Promise((resolve, reject) => {
      child.once('error', (err) => {
        opts.signal.removeEventListener('abort', onAbort);
        reject(err);
      });
      child.once('spawn', () => waiter?.(child));
      child.once('close', (code, signal) => {
        opts.signal.removeEventListener('abort', onAbort);
        opts.stdin?.unpipe(child.stdin);
        void copies.then(() => resolve(code ?? (signal ? 128 + 9 : 1)));
      });
    });
  }
}
