// systemd's readiness protocol (sd_notify(3)) for a Type=notify service: READY=1 once berthd
// serves, STOPPING=1 when it begins to shut down, and WATCHDOG=1 every half WatchdogSec while its
// event loop runs. Without NOTIFY_SOCKET (not under systemd) every call does nothing.
//
// The variables are removed from the environment at once, as sd_notify's unset_environment does:
// children (shims, runc, CNI plugins) must not see them. runc in particular proxies a NOTIFY_SOCKET
// it inherits into the container and waits for the container's own READY=1.
import { messageOf } from '../errdefs/errors';
import type { Logger } from '../log/logger';
import { sendNotifyDatagram } from '../sys/notify';

export interface Notifier {
  /** READY=1 with a STATUS line: the daemon serves. */
  ready(status: string): void;
  /** STOPPING=1: shutdown has begun. */
  stopping(): void;
  /** Stops the watchdog pings. */
  close(): void;
}

export type Send = (socket: string, message: string) => void;

/** The watchdog interval systemd asked for, in ms; undefined when there is none for this process. */
function watchdogMs(env: NodeJS.ProcessEnv, pid: number): number | undefined {
  const usec = Number(env.WATCHDOG_USEC ?? '');
  if (!Number.isSafeInteger(usec) || usec <= 0) return undefined;
  // WATCHDOG_PID names the process the watchdog is meant for (a wrapper may have exec'd us).
  if (env.WATCHDOG_PID !== undefined && env.WATCHDOG_PID !== String(pid)) return undefined;
  return Math.max(1, Math.floor(usec / 1000));
}

export function systemdNotifier(logger: Logger, env: NodeJS.ProcessEnv = process.env, send: Send = sendNotifyDatagram): Notifier {
  const socket = env.NOTIFY_SOCKET;
  const watchdog = watchdogMs(env, process.pid);
  for (const key of ['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'WATCHDOG_PID']) delete env[key];
  if (socket === undefined || socket === '') return { ready: () => undefined, stopping: () => undefined, close: () => undefined };

  let warned = false;
  const notify = (message: string) => {
    try {
      send(socket, message);
    } catch (err) {
      // systemd gone or the socket unusable: say so once, keep serving.
      if (!warned) logger.warn('systemd notification failed', { socket, error: messageOf(err) });
      warned = true;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  if (watchdog !== undefined) {
    // Half the interval, as sd_watchdog_enabled(3) advises; unref'd so it never keeps berthd alive.
    timer = setInterval(() => notify('WATCHDOG=1'), Math.max(1, Math.floor(watchdog / 2)));
    timer.unref();
    notify('WATCHDOG=1');
  }
  return {
    ready: (status) => notify(`READY=1\nSTATUS=${status.replace(/\n/g, ' ')}\nMAINPID=${process.pid}`),
    stopping: () => notify('STOPPING=1\nSTATUS=stopping'),
    close: () => clearInterval(timer),
  };
}
