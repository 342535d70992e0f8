// Waiting (bounded) until a freshly spawned daemon serves: answers CRI Version on its socket and,
// when asked, passes a further check (e.g. "lists every container RUNNING" after a restart).
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import type { CriClient } from '../../harness/cri_client';
import { benchCriClient } from './client';

/** Fine enough to time a restart; each attempt is a unix connect and, once it succeeds, two RPCs. */
const POLL_MS = 10;

/** True when something accepts connections on the unix socket (a stale socket file refuses). */
function accepts(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(socket);
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => {
      sock.destroy();
      resolve(false);
    });
  });
}

/** One attempt with a fresh client: Version, then `check`; any failure means "not yet". */
async function servesNow(socket: string, check: (cri: CriClient) => Promise<boolean>): Promise<boolean> {
  if (!existsSync(socket) || !(await accepts(socket))) return false;
  const c = benchCriClient(socket);
  try {
    await c.runtime.Version({}, { deadline: Date.now() + 2000 });
    return await check(c);
  } catch {
    return false;
  } finally {
    c.close();
  }
}

export async function waitUntilServing(
  socket: string,
  hasExited: () => boolean,
  describe: () => string,
  check: (cri: CriClient) => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const giveUp = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited()) throw new Error(`daemon exited before serving on ${socket}: ${describe()}`);
    if (await servesNow(socket, check)) return;
    if (Date.now() > giveUp) throw new Error(`${socket} not serving after ${timeoutMs} ms: ${describe()}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export function waitForCriVersion(socket: string, hasExited: () => boolean, describe: () => string, timeoutMs = 30_000): Promise<void> {
  return waitUntilServing(socket, hasExited, describe, async () => true, timeoutMs);
}

/** Polls `check` until it is true (bounded); false on timeout. */
export async function pollUntil(check: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const giveUp = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > giveUp) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
