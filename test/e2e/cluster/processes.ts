// The cluster's own processes (etcd, the control plane, the kubelet): each started in its own
// process group with its output in a log file under the run's temp dir, stopped by PID (SIGTERM,
// then SIGKILL), and waited for through an HTTP(S) health path on 127.0.0.1.
import http from 'node:http';
import https from 'node:https';
import { launchDaemon, type SpawnedDaemon } from '../../bench/peers/spawn';
import { terminate } from '../../bench/procs';

export interface ClusterProcess {
  name: string;
  pid: number;
  logPath: string;
  logTail(): string;
  stop(): Promise<void>;
}

export function startProcess(name: string, command: string, args: string[], logPath: string): ClusterProcess & { daemon: SpawnedDaemon } {
  // launchDaemon's socket is for its CRI readiness wait, which these processes do not use.
  const daemon = launchDaemon({ command, args, socket: '', logPath });
  return {
    name,
    pid: daemon.ref.pid,
    logPath,
    daemon,
    logTail: daemon.logTail,
    stop: () => terminate(daemon.ref, 10_000),
  };
}

/** Bound on any health answer read into memory. */
const MAX_BODY_BYTES = 1 << 20;

/** GET of a loopback URL: status and body, or undefined when nothing answers yet. */
export function probe(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string } | undefined> {
  const get = url.startsWith('https:') ? https.get : http.get;
  return new Promise((resolve) => {
    const req = get(url, { headers, rejectUnauthorized: false, timeout: 5_000 }, (res) => {
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY_BYTES) parts.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

/** Polls `url` until it answers 200 with `expected` in the body; throws with the log tail if the process exits or never does. */
export async function waitHealthy(proc: ClusterProcess & { daemon: SpawnedDaemon }, url: string, expected: string, headers: Record<string, string> = {}, timeoutMs = 120_000): Promise<void> {
  const giveUp = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    if (proc.daemon.exited()) throw new Error(`${proc.name} exited at start:\n${proc.logTail()}`);
    const answer = await probe(url, headers);
    if (answer?.status === 200 && answer.body.includes(expected)) return;
    last = answer === undefined ? 'no answer' : `HTTP ${answer.status}: ${answer.body.slice(0, 300)}`;
    if (Date.now() > giveUp) throw new Error(`${proc.name}: ${url} not healthy after ${timeoutMs / 1000} s (${last}):\n${proc.logTail()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
