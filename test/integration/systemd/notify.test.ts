// berthd under a Type=notify unit: the test plays systemd's side of NOTIFY_SOCKET with a unix
// datagram socket (a small Python receiver; Node has no datagram unix sockets) and checks what a
// supervisor relies on: READY=1 only once the socket serves, WATCHDOG=1 while it runs when a
// watchdog is asked for, STOPPING=1 on SIGTERM; abstract socket addresses work too.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { criClient } from '../../harness/cri_client';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';

jest.setTimeout(120_000);

// Binds the datagram socket, prints "bound", then one JSON string per datagram received.
const RECEIVER = `
import json, socket, sys
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind('\\0' + path[1:] if path.startswith('@') else path)
print('"bound"', flush=True)
while True:
    print(json.dumps(s.recv(65536).decode()), flush=True)
`;

class FakeSystemd {
  readonly messages: string[] = [];
  private readonly child: ChildProcess;
  private waiters: Array<() => void> = [];

  constructor(readonly address: string) {
    this.child = spawn('python3', ['-c', RECEIVER, address], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    this.child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) this.messages.push(JSON.parse(line) as string);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves with the first message (after those already seen) for which `match` holds. */
  async next(match: (m: string) => boolean, from = 0): Promise<{ message: string; index: number }> {
    const giveUp = Date.now() + 60_000;
    for (;;) {
      const index = this.messages.findIndex((m, i) => i >= from && match(m));
      if (index >= 0) return { message: this.messages[index]!, index };
      if (Date.now() > giveUp) throw new Error(`no such notification; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 500).unref();
      });
    }
  }

  async bound(): Promise<void> {
    await this.next((m) => m === 'bound');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const gone = new Promise((r) => this.child.once('exit', r));
      process.kill(this.child.pid!, 'SIGKILL');
      await gone;
    }
  }
}

const lines = (m: string) => m.split('\n');

describe('berthd and systemd NOTIFY_SOCKET', () => {
  let dir: string;
  let daemon: RunningBerthd | undefined;
  let systemd: FakeSystemd | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-notify-'));
  });

  afterEach(async () => {
    await daemon?.stop();
    await systemd?.stop();
    daemon = systemd = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends READY=1 once it serves, WATCHDOG=1 while it runs, STOPPING=1 on SIGTERM', async () => {
    systemd = new FakeSystemd(join(dir, 'notify.sock'));
    await systemd.bound();
    // 400 ms: berthd must ping every 200 ms.
    const env = { NOTIFY_SOCKET: systemd.address, WATCHDOG_USEC: '400000' };
    daemon = await startBerthd({ dir, env });

    const ready = await systemd.next((m) => lines(m).includes('READY=1'));
    expect(lines(ready.message)).toEqual(expect.arrayContaining([`MAINPID=${daemon.pid}`, `STATUS=serving on ${daemon.socket}`]));
    // READY=1 came after the socket served: a client told "ready" is answered.
    const client = criClient(daemon.socket);
    try {
      expect((await client.runtime.Version({})).runtime_name).toBe('berth');
    } finally {
      client.close();
    }
    expect(systemd.messages.filter((m) => lines(m).includes('READY=1'))).toHaveLength(1);

    // Pings keep coming after READY=1 (the event loop runs).
    const first = await systemd.next((m) => m === 'WATCHDOG=1', ready.index + 1);
    await systemd.next((m) => m === 'WATCHDOG=1', first.index + 1);

    const exit = await daemon.stop();
    daemon = undefined;
    expect(exit).toEqual({ code: 0, signal: null });
    const stopping = await systemd.next((m) => lines(m).includes('STOPPING=1'));
    expect(stopping.index).toBeGreaterThan(ready.index);
  });

  it('sends no watchdog pings when WATCHDOG_PID names another process', async () => {
    systemd = new FakeSystemd(join(dir, 'notify.sock'));
    await systemd.bound();
    daemon = await startBerthd({ dir, env: { NOTIFY_SOCKET: systemd.address, WATCHDOG_USEC: '200000', WATCHDOG_PID: '1' } });
    await systemd.next((m) => lines(m).includes('READY=1'));
    await daemon.stop();
    daemon = undefined;
    await systemd.next((m) => lines(m).includes('STOPPING=1'));
    expect(systemd.messages.filter((m) => m.includes('WATCHDOG'))).toEqual([]);
  });

  it('speaks to an abstract socket address (@name), as systemd may give one', async () => {
    systemd = new FakeSystemd(`@berth-notify-test-${randomBytes(6).toString('hex')}`);
    await systemd.bound();
    daemon = await startBerthd({ dir, env: { NOTIFY_SOCKET: systemd.address } });
    const ready = await systemd.next((m) => lines(m).includes('READY=1'));
    expect(lines(ready.message)).toContain(`MAINPID=${daemon.pid}`);
  });

  it('keeps serving when NOTIFY_SOCKET names nothing', async () => {
    const missing = join(dir, 'absent.sock');
    daemon = await startBerthd({ dir, env: { NOTIFY_SOCKET: missing } });
    expect(existsSync(missing)).toBe(false);
    expect(daemon.stderr()).toContain('systemd notification failed');
    expect(await daemon.stop()).toEqual({ code: 0, signal: null });
    daemon = undefined;
  });
});
