// e. The kubelet's API, which kubectl exec/logs/port-forward and metrics reach: /exec over SPDY
// with stdin (proxied by the kubelet to the runtime's streaming server), /run, /containerLogs with
// tailLines and with follow, /portForward over SPDY, /stats/summary with per-container figures.
import { once } from 'node:events';
import https from 'node:https';
import { portForward, streamExec } from '../../harness/streaming_client';
import { expect, startReadyPod, type Check, type E2eContext } from '../check';
import { fullName, manifest, NAMESPACE } from '../pods';

/** A bound on a streaming session, so a session the server never ends fails the check instead of the run. */
function withTimeout<T>(p: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: session not ended after ${ms / 1000} s`)), ms)));
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** The same two-container pod for each check, under the check's own name (its own UID and log dir). */
async function apiPod(ctx: E2eContext, name: string): Promise<string> {
  await startReadyPod(
    ctx,
    manifest({
      name,
      spec: {
        containers: [
          {
            name: 'web',
            command: ['sh', '-c', 'mkdir -p /www && echo forwarded > /www/index.html && exec httpd -f -p 8080 -h /www'],
            ports: [{ containerPort: 8080 }],
          },
          // A line a second, numbered: the logs checks read and follow it.
          { name: 'counter', command: ['sh', '-c', 'i=0; while true; do echo "tick $i"; i=$((i+1)); sleep 1; done'] },
        ],
      },
    }),
  );
  return fullName(name);
}

export const execAndRun: Check = {
  id: 'e1',
  title: '/exec (SPDY, stdin, exit code) and /run',
  async run(ctx) {
    const pod = await apiPod(ctx, 'api-exec');
    const base = `/exec/${NAMESPACE}/${pod}/web`;
    const cmd = ['sh', '-c', 'read line; echo "got $line"; echo to-stderr >&2; exit 7'].map((c) => `command=${encodeURIComponent(c)}`).join('&');
    const r = await withTimeout(streamExec(ctx.kubelet.api.url(`${base}?${cmd}&input=1&output=1&error=1`), { transport: 'spdy', stdin: 'hello\n' }), 'exec with stdin');
    expect(r.stdout === 'got hello\n', `exec stdout: ${JSON.stringify(r.stdout)}`);
    expect(r.stderr === 'to-stderr\n', `exec stderr: ${JSON.stringify(r.stderr)}`);
    const exitCode = r.status?.details?.causes?.find((c) => c.reason === 'ExitCode')?.message;
    expect(r.status?.status === 'Failure' && exitCode === '7', `exec status: ${r.errorText}`);
    const run = await ctx.kubelet.api.run(NAMESPACE, pod, 'web', ['cat', '/www/index.html']);
    expect(run === 'forwarded\n', `/run: ${JSON.stringify(run)}`);
  },
};

/** Reads a follow=true log stream until `until` matches what arrived, then closes it. */
function followLogs(url: string, until: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = https.get(url, { rejectUnauthorized: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`follow: HTTP ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
        if (until(text)) {
          req.destroy();
          resolve(text);
        }
      });
      res.on('end', () => reject(new Error(`follow stream ended early: ${JSON.stringify(text)}`)));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`follow: nothing matched in 30 s: ${JSON.stringify(text)}`)));
    req.on('error', reject);
  });
}

export const containerLogs: Check = {
  id: 'e2',
  title: '/containerLogs with tailLines, and follow (new lines arrive, in order)',
  async run(ctx) {
    const pod = await apiPod(ctx, 'api-logs');
    const path = `/containerLogs/${NAMESPACE}/${pod}/counter`;
    // Wait for a few lines, then ask for the last two.
    for (let i = 0; i < 100; i++) {
      if ((await ctx.kubelet.api.ok(path)).split('\n').length > 4) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const tail = await ctx.kubelet.api.ok(`${path}?tailLines=2`);
    const lines = tail.split('\n').filter((l) => l !== '');
    expect(lines.length === 2 && /^tick \d+$/.test(lines[0]!) && /^tick \d+$/.test(lines[1]!), `tailLines=2: ${JSON.stringify(tail)}`);
    const n0 = Number(lines[0]!.split(' ')[1]);
    expect(Number(lines[1]!.split(' ')[1]) === n0 + 1, `tailLines=2 not consecutive: ${JSON.stringify(tail)}`);
    // follow from tailLines=1: the last line, then the following ones as they are written.
    const followed = await followLogs(ctx.kubelet.api.url(`${path}?follow=true&tailLines=1`), (t) => t.split('\n').length >= 4);
    const nums = followed.split('\n').filter((l) => l !== '').map((l) => Number(/^tick (\d+)$/.exec(l)?.[1] ?? NaN));
    expect(nums.length >= 3 && nums.every((n, i) => i === 0 || n === nums[i - 1]! + 1) && nums[0]! >= n0, `follow: ${JSON.stringify(followed)}`);
  },
};

export const portForwardCheck: Check = {
  id: 'e3',
  title: '/portForward (SPDY) to the pod\'s port 8080',
  async run(ctx) {
    const pod = await apiPod(ctx, 'api-forward');
    const fwd = await withTimeout(portForward(ctx.kubelet.api.url(`/portForward/${NAMESPACE}/${pod}`), 8080, 'spdy'), 'port-forward');
    try {
      const chunks: Buffer[] = [];
      fwd.stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
      fwd.stream.write('GET /index.html HTTP/1.0\r\n\r\n');
      await Promise.race([once(fwd.stream, 'end'), once(fwd.stream, 'close'), new Promise((r) => setTimeout(r, 10_000))]);
      const answer = Buffer.concat(chunks).toString();
      expect(/^HTTP\/1\.[01] 200/.test(answer) && answer.endsWith('forwarded\n'), `through port-forward: ${JSON.stringify(answer.slice(0, 300))}`);
    } finally {
      fwd.close();
    }
  },
};

interface SummaryContainer {
  name: string;
  cpu?: { usageCoreNanoSeconds?: number };
  memory?: { workingSetBytes?: number };
  rootfs?: { usedBytes?: number };
  logs?: { usedBytes?: number };
}

export const statsSummary: Check = {
  id: 'e4',
  title: '/stats/summary: per-container CPU, memory, rootfs and logs figures',
  async run(ctx) {
    const podName = await apiPod(ctx, 'api-stats');
    let last = '';
    // cadvisor and the CRI stats fill in over a housekeeping interval or two.
    for (let i = 0; i < 60; i++) {
      last = await ctx.kubelet.api.ok('/stats/summary');
      const summary = JSON.parse(last) as { pods?: { podRef: { name: string; namespace: string }; containers?: SummaryContainer[] }[] };
      const pod = summary.pods?.find((p) => p.podRef.name === podName && p.podRef.namespace === NAMESPACE);
      const counter = pod?.containers?.find((c) => c.name === 'counter');
      const good = (c: SummaryContainer | undefined) =>
        c !== undefined && (c.cpu?.usageCoreNanoSeconds ?? 0) > 0 && (c.memory?.workingSetBytes ?? 0) > 0 && (c.rootfs?.usedBytes ?? -1) >= 0 && (c.logs?.usedBytes ?? 0) > 0;
      if (good(counter) && good(pod?.containers?.find((c) => c.name === 'web'))) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const pod = (JSON.parse(last) as { pods?: { podRef: { name: string }; containers?: unknown }[] }).pods?.find((p) => p.podRef.name === podName);
    throw new Error(`summary never had cpu, memory, rootfs and logs for both containers: ${JSON.stringify(pod?.containers ?? pod ?? 'pod absent').slice(0, 1500)}`);
  },
};
