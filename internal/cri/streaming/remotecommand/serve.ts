// Runs exec or attach on a connected remote-command session and reports the outcome the way
// kubelet's ServeExec/ServeAttach do: Success, NonZeroExitCode with the code as cause, or an
// InternalError carrying the runtime's message. Then closes the session.
import type { Logger } from '../../../log/logger';
import { messageOf } from '../../../errdefs/errors';
import type { AttachOptions, StreamingRuntime } from '../runtime';
import { internalErrorStatus, nonZeroExitStatus, successStatus, type Status } from '../status';
import type { RemoteCommandOptions, RemoteCommandSession } from './session';

export interface ExecTarget {
  containerId: string;
  cmd: string[];
}

/** What exec and attach both hand the runtime: the container and the session's streams. */
function sessionIO(containerId: string, opts: RemoteCommandOptions, session: RemoteCommandSession): AttachOptions {
  return {
    containerId,
    tty: opts.tty,
    stdin: session.stdin,
    stdout: session.stdout,
    stderr: session.stderr,
    resize: session.resize,
    signal: session.signal,
  };
}

export async function serveExec(
  runtime: StreamingRuntime,
  target: ExecTarget,
  opts: RemoteCommandOptions,
  session: RemoteCommandSession,
  logger: Logger,
): Promise<void> {
  await runAndReport(session, logger, target.containerId, 'exec', 'error executing command in container', async () => {
    const { exitCode } = await runtime.exec({ ...sessionIO(target.containerId, opts, session), cmd: target.cmd });
    return exitCode === 0 ? successStatus() : nonZeroExitStatus(target.cmd, exitCode);
  });
}

export async function serveAttach(
  runtime: StreamingRuntime,
  containerId: string,
  opts: RemoteCommandOptions,
  session: RemoteCommandSession,
  logger: Logger,
): Promise<void> {
  await runAndReport(session, logger, containerId, 'attach', 'error attaching to container', async () => {
    await runtime.attach(sessionIO(containerId, opts, session));
    return successStatus();
  });
}

/** Runs the session's command; a failure to run at all becomes InternalError "<failure>: <message>". */
async function runAndReport(
  session: RemoteCommandSession,
  logger: Logger,
  containerId: string,
  verb: 'exec' | 'attach',
  failure: string,
  run: () => Promise<Status>,
): Promise<void> {
  let status: Status;
  try {
    status = await run();
  } catch (err) {
    logger.warn(`${verb} failed`, { containerId, error: messageOf(err) });
    status = internalErrorStatus(`${failure}: ${messageOf(err)}`);
  }
  await finish(session, status);
}

async function finish(session: RemoteCommandSession, status: Status): Promise<void> {
  if (session.signal.aborted) return session.destroy(); // nobody left to tell
  await session.writeStatus(status);
  await session.close();
}
