// The CRI side of the streaming server: exec through the container's shim (its process spec with
// other args), attach to the container's own stdio, port-forward into the pod's netns.
import { join } from 'node:path';
import { TaskIO } from '../cio/task_io';
import { failedPrecondition } from '../errdefs/errors';
import type { Spec } from '../oci/spec';
import { containerIOs } from './container_io';
import { portForwardInNetns, type AttachOptions, type ExecOptions, type PortForwardOptions, type StreamingRuntime } from './streaming';
import { containerState, type Container } from './store/container';
import type { CriTask } from './tasks/types';
import { generateId } from './util/ids';
import type { RuntimeDeps } from './server/service';

const SIGKILL = 9;

function runningTask(rt: RuntimeDeps, containerId: string): { container: Container; task: CriTask } {
  const container = rt.containers.get(containerId);
  const state = containerState(container.status);
  if (state !== 'CONTAINER_RUNNING') throw failedPrecondition(`container ${container.id} is in ${state} state`);
  const task = rt.tasks.get(container.id);
  if (!task) throw failedPrecondition(`container ${container.id} has no running task`);
  return { container, task };
}

async function forwardResizes(opts: { resize?: AsyncIterable<{ width: number; height: number }> }, apply: (w: number, h: number) => Promise<void>): Promise<void> {
  if (!opts.resize) return;
  for await (const size of opts.resize) await apply(size.width, size.height).catch(() => undefined);
}

export class CriStreamingRuntime implements StreamingRuntime {
  constructor(private readonly rt: RuntimeDeps) {}

  async exec(opts: ExecOptions): Promise<{ exitCode: number }> {
    const { container, task } = runningTask(this.rt, opts.containerId);
    const spec = container.spec as Spec;
    if (!spec.process) throw failedPrecondition(`container ${container.id}: its stored spec has no process`);
    const execId = generateId();
    const io = TaskIO.create(join(container.metadata.stateDir, 'exec', execId.slice(0, 16)), 'exec', {
      stdin: opts.stdin !== undefined,
      stdout: opts.stdout !== undefined,
      stderr: opts.stderr !== undefined && !opts.tty,
      terminal: opts.tty,
    });
    try {
      if (opts.stdout && io.stdout) io.stdout.pipe(opts.stdout, { end: false });
      if (opts.stderr && io.stderr) io.stderr.pipe(opts.stderr, { end: false });
      if (opts.stdin && io.stdin) opts.stdin.pipe(io.stdin);
      const onAbort = () => void task.killExec(execId, SIGKILL).catch(() => undefined);
      opts.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const exit = await task.exec(
          { execId, process: { ...structuredClone(spec.process), args: [...opts.cmd], terminal: opts.tty }, stdio: io.paths },
          {
            onStarted: () => {
              io.releaseKeepers();
              void forwardResizes(opts, (w, h) => task.resizePty(execId, w, h));
            },
          },
        );
        io.releaseKeepers();
        await io.done();
        return { exitCode: exit.exitStatus };
      } finally {
        opts.signal.removeEventListener('abort', onAbort);
      }
    } finally {
      opts.stdin?.unpipe();
      io.remove();
    }
  }

  async attach(opts: AttachOptions): Promise<void> {
    const { container, task } = runningTask(this.rt, opts.containerId);
    const cio = containerIOs(this.rt.containers).get(container.id);
    if (!cio) throw failedPrecondition(`container ${container.id}: its output is not attached to berthd`);
    if (opts.stdin && !container.metadata.config.stdin) {
      throw failedPrecondition(`container ${container.id} was not created with stdin`);
    }
    const unsubscribe = cio.addOutputListener((stream, chunk) => {
      const target = stream === 'stdout' || opts.tty ? opts.stdout : opts.stderr;
      target?.write(chunk);
    });
    if (opts.stdin && cio.stdin) {
      const target = cio.stdin;
      opts.stdin.on('data', (chunk: Buffer) => target.write(chunk));
      // stdin_once: the container's stdin closes when the first attach's stdin ends.
      opts.stdin.once('end', () => {
        if (container.metadata.config.stdin_once) void task.closeStdin('').catch(() => undefined);
      });
    }
    void forwardResizes(opts, (w, h) => task.resizePty('', w, h));
    try {
      const aborted = new Promise<void>((resolve) => opts.signal.addEventListener('abort', () => resolve(), { once: true }));
      await Promise.race([task.exited.then(() => cio.drained()), aborted]);
    } finally {
      unsubscribe();
    }
  }

  async portForward(opts: PortForwardOptions): Promise<void> {
    const sandbox = this.rt.sandboxes.get(opts.sandboxId);
    if (sandbox.status.state !== 'ready') throw failedPrecondition(`sandbox ${sandbox.id} is not ready`);
    await portForwardInNetns(sandbox.metadata.netnsPath, opts.port, opts.stream, opts.signal);
  }
}
