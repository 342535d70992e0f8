// Small probes the recovery suites share: polling for a condition, whether a unix socket accepts a
// connection, and a running container's process and shim.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { CriClient } from '../../harness/cri_client';

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
function parentPid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The PID of running container `id` (from its verbose status) and of its shim, its parent; throws unless that is containerd-shim-runc-v2. */
export async function processAndShim(client: CriClient, id: string): Promise<{ pid: number; shim: number }> {
  const verbose = await client.runtime.ContainerStatus({ container_id: id, verbose: true });
  const pid = (JSON.parse(verbose.info.info!) as { pid: number }).pid;
  const shim = parentPid(pid);
  const cmdline = readFileSync(`/proc/${shim}/cmdline`, 'utf8');
  if (!cmdline.includes('containerd-shim-runc-v2')) throw new Error(`the parent of container process ${pid} is not its shim: ${cmdline}`);
  return { pid, shim };
}
