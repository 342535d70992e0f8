// ExecSync: runs a command in a running container (the container's process spec with other args,
// no terminal) and answers its stdout, stderr (each capped at 16 MiB, as containerd caps them) and
// exit code. With a timeout the process is killed when it runs over and the call fails with
// DeadlineExceeded, which kubelet's probes read as a probe timeout.
import type { Readable } from 'node:stream';
import type { ExecSyncRequest__Output } from '../../api/gen/runtime/v1/ExecSyncRequest';
import type { ExecSyncResponse } from '../../api/gen/runtime/v1/ExecSyncResponse';
import { TaskIO } from '../../cio/task_io';
import { deadlineExceeded, failedPrecondition, invalidArgument, kindOf, messageOf, wrap } from '../../errdefs/errors';
import type { TaskExit } from '../tasks/types';
import type { CriService } from './service';
import { execSetup, runningTask } from '../exec_process';
import { callSignal, type CallEnd } from '../util/call_signal';
import { settledWithin } from '../util/settled';

/** containerd's maxStreamSize for ExecSync output. */
export const MAX_EXEC_SYNC_OUTPUT = 16 << 20;
/** After the exec'd process exited, how long its output may take to arrive (a child may hold the pipe). */
const OUTPUT_GRACE_MS = 5_000;

/** Collects a stream into memory, keeping at most `cap` bytes (the rest is read and dropped). */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly cap: number) {}

  write(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) return;
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(kept);
    this.size += kept.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

function capture(stream: Readable | undefined): CappedBuffer {
  const buf = new CappedBuffer(MAX_EXEC_SYNC_OUTPUT);
  stream?.on('data', (chunk: Buffer) => buf.write(chunk));
  return buf;
}

/** How long the exit of a container whose exec failed may take to be reported by its shim. */
const EXIT_NOTICE_MS = 1_000;

export async function execSync(svc: CriService, req: ExecSyncRequest__Output, call: CallEnd): Promise<ExecSyncResponse> {
  if (req.cmd.length === 0) throw invalidArgument(`exec in container ${req.container_id}: cmd is required`);
  const { container, task } = runningTask(svc.rt, req.container_id);
  const { id } = container;
  const timeoutSec = Math.max(0, Number(req.timeout) || 0);
  const { execId, dir, fifoId, process } = execSetup(container, req.cmd, false);
  const io = TaskIO.create(dir, fifoId, { stdout: true, stderr: true, sharedDir: true });
  // A client that cancels or runs out of its deadline ends the command.
  const callEnded = callSignal(call);
  let ioInUse: Promise<unknown> = Promise.resolve();
  try {
    const stdout = capture(io.stdout);
    const stderr = capture(io.stderr);
    let exit: TaskExit;
    try {
      // The task layer kills the process when it runs over (the clock starts once it started).
      exit = await task.exec(
        { execId, process, stdio: io.paths },
        {
          onStarted: () => io.releaseKeepers(),
          timeoutMs: timeoutSec > 0 ? timeoutSec * 1000 : undefined,
          signal: callEnded,
          outputDone: io.done(),
          onStartAbandoned: (settled) => (ioInUse = settled),
        },
      );
    } catch (err) {
      // Nobody waits for an answer any more; the command was killed and waited for.
      if (kindOf(err) === 'Canceled') throw err;
      if (kindOf(err) === 'DeadlineExceeded') {
        throw deadlineExceeded(`exec ${JSON.stringify(req.cmd[0])} in container ${id}: timeout ${timeoutSec}s exceeded`, err);
      }
      // The container exited between the state check above and the exec. runc words that many ways
      // (setns fails, broken init pipe, "container does not exist"), so ask the task instead: if it
      // exited, this is a state error as for an exited container. runc's verdict on the command
      // itself ('exec: "x": executable file not found') needs no wait.
      const message = messageOf(err);
      if (
        /cannot exec in a (stopped|deleted) (container|state)/.test(message) ||
        (!/unable to start container process: exec: /.test(message) && (await settledWithin(task.exited, EXIT_NOTICE_MS)))
      ) {
        throw failedPrecondition(`exec in container ${id}: container is not running`, err);
      }
      throw wrap(err, 'failed to exec in container'); // containerd's words
    }
    io.releaseKeepers(); // if the process never reported started, EOF must still come
    await settledWithin(io.done(), OUTPUT_GRACE_MS);
    return { stdout: stdout.bytes(), stderr: stderr.bytes(), exit_code: exit.exitStatus };
  } finally {
    const remove = () => io.remove();
    void ioInUse.then(remove, remove);
  }
}
