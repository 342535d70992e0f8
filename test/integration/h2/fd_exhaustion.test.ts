// Clients that hold more connections than berthd may have file descriptors: accept(2) fails with
// EMFILE, and libuv accepts and closes the connections past the limit with the descriptor it keeps
// for that. Those clients' loss only: berthd's own work that needs a descriptor meanwhile (the image
// filesystem's measurement opens /proc/self/mountinfo every 10 s) fails as that work's error, never
// as an exception out of a timer; berthd stays up and serves again once the connections are gone.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { criClient } from '../../harness/cri_client';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';

jest.setTimeout(120_000);

/** Connections beyond berthd's descriptor limit: every one past it fails an accept. */
const CONNECTIONS = 60;
/** Descriptors left free under the limit when the storm begins. */
const HEADROOM = 8;

function connectOnce(socket: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const sock = connect(socket);
    sock.once('connect', () => resolve(sock));
    sock.once('error', () => resolve(undefined));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('berthd out of file descriptors', () => {
  let daemon: RunningBerthd;

  beforeAll(async () => {
    daemon = await startBerthd();
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('closes the connections past its limit, keeps its timers from throwing, and serves once they are gone', async () => {
    const open = readdirSync(`/proc/${daemon.pid}/fd`).length;
    const limit = open + HEADROOM;
    execFileSync('prlimit', ['--pid', String(daemon.pid), `--nofile=${limit}:${limit}`]);
    const sockets: Socket[] = [];
    let closedByBerthd = 0;
    try {
      for (let i = 0; i < CONNECTIONS; i++) {
        const sock = await connectOnce(daemon.socket);
        if (sock) {
          sock.on('error', () => undefined);
          sock.on('end', () => closedByBerthd++);
          sockets.push(sock);
        }
      }
      // The next measurement of the image filesystem (at most 10 s away) finds no descriptor.
      const giveUp = Date.now() + 30_000;
      while (!daemon.stderr().includes('measuring the image filesystem failed') && Date.now() < giveUp) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(daemon.stderr()).toContain('measuring the image filesystem failed');
      expect(closedByBerthd).toBeGreaterThan(0);
    } finally {
      for (const sock of sockets) sock.destroy();
    }
    expect(alive(daemon.pid)).toBe(true);
    const client = criClient(daemon.socket);
    try {
      // Our closed connections free berthd's descriptors once it reads their ends; retried until then.
      let version: string | undefined;
      const giveUp = Date.now() + 30_000;
      while (version === undefined && Date.now() < giveUp) {
        version = await client.runtime
          .Version({}, { deadline: Date.now() + 2000 })
          .then((v) => v.runtime_name)
          .catch(() => undefined);
      }
      expect(version).toBe('berth');
    } finally {
      client.close();
    }
    expect(alive(daemon.pid)).toBe(true);
    expect(daemon.stderr()).not.toContain('uncaught exception');
  });
});
