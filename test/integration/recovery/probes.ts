// Small probes the recovery suites share: polling for a condition, whether a unix socket accepts a
// connection, and a process's parent (a container process's shim).
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** Polls until `done()` (a guard against hanging, not a timing assert). */
export async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  const giveUp = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** True once a connection to the unix socket at `socket` is accepted (then closed), false when refused. */
export function accepts(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(socket);
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

/** The parent PID of `pid`, from /proc (fields after the command's closing parenthesis: state, ppid, ...). */
export function parentPid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}
