// Runs exec or attach on a connected remote-command session and reports the outcome the way
// kubelet's ServeExec/ServeAttach do: Success, NonZeroExitCode with the code as cause, or an
// InternalError carrying the runtime's message. Then closes the session.
import type { Logger } from '../../../log/logger';
import { messageOf } from '../../../errdefs/errors';
import type { StreamingRuntime } from '../runtime';
import { internalErrorStatus, nonZeroExitStatus, successStatus, type Status } from '../status';
import type { RemoteCommandOptions, RemoteCommandSession } from './session';

export interface ExecTarget {
  containerId: string;
  cmd: string[];
}

export async function serveExec(
  runtime: StreamingRuntime,
  target: ExecTarget,
  opts: RemoteCommandOptions,
  session: RemoteCommandSession,
  logger: Logger,
): Promise<void> {
  let status: Status;
  try {
    const { exitCode } = await runtime.exec({
      containerId: target.containerId,
      cmd: target.cmd,
      tty: opts.tty,
      stdin: session.stdin,
      stdout: session.stdout,
      stderr: session.stderr,
      resize: session.resize,
      signal: session.signal,
    });
    status = exitCode === 0 ? successStatus() : nonZeroExitStatus(target.cmd, exitCode);
  } catch (err) {
    logger.warn('exec failed', { containerId: target.containerId, error: messageOf(err) });
    status = internalErrorStatus(`error executing command in container: ${messageOf(err)}`);
  }
  await finish(session, status);
}

export async function serveAttach(
  runtime: StreamingRuntime,
  containerId: string,
  opts: RemoteCommandOptions,
  session: RemoteCommandSession,
  logger: Logger,
): Promise<void> {
  let status: Status;
  try {
    await runtime.attach({
      containerId,
      tty: opts.tty,
      stdin: session.stdin,
      stdout: session.stdout,
      stderr: session.stderr,
      resize: session.resize,
      signal: session.signal,
    });
    status = successStatus();
  } catch (err) {
    logger.warn('attach failed', { containerId, error: messageOf(err) });
    status = internalErrorStatus(`error attaching to container: ${messageOf(err)}`);
  }
  await finish(session, status);
}

async function finish(session: RemoteCommandSession, status: Status): Promise<void> {
  if (session.signal.aborted) return session.destroy(); // nobody left to tell
  await session.writeStatus(status);
  await session.close();
}
