// Waiting (bounded) until a freshly spawned daemon answers CRI Version on its socket.
import { existsSync } from 'node:fs';
import { criClient } from '../../harness/cri_client';

export async function waitForCriVersion(
  socket: string,
  hasExited: () => boolean,
  describe: () => string,
  timeoutMs = 30_000,
): Promise<void> {
  const giveUp = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited()) throw new Error(`daemon exited before serving on ${socket}: ${describe()}`);
    if (existsSync(socket)) {
      const c = criClient(socket);
      try {
        await c.runtime.Version({}, { deadline: Date.now() + 2000 });
        return;
      } catch {
        // not serving yet
      } finally {
        c.close();
      }
    }
    if (Date.now() > giveUp) throw new Error(`no CRI Version answer on ${socket} after ${timeoutMs} ms: ${describe()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
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
