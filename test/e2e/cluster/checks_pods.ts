// Single pods as a kubectl user drives them: `run`, `exec -i`, `logs -f`, `port-forward`,
// `attach`, `cp`. Each of these streams goes kubectl -> apiserver -> kubelet -> the runtime's
// streaming server, so each check passes only if the whole chain works on that runtime.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { probe } from './processes';
import { expect, IMAGE, PULL_NEVER, waitCondition, webContainer, type ClusterCheck, type ClusterContext } from './cluster_check';

async function runPod(ctx: ClusterContext, name: string, script: string): Promise<void> {
  await ctx.kubectl.run(['run', name, `--image=${IMAGE}`, ...PULL_NEVER, '--restart=Never', '--command', '--', 'sh', '-c', script]);
  await waitCondition(ctx, `pod/${name}`, 'Ready');
}

export const runAndExec: ClusterCheck = {
  id: 'k1',
  title: 'kubectl run; exec -i: stdin in, stdout, stderr, exit code out',
  async run(ctx) {
    const start = Date.now();
    await runPod(ctx, 'shell', 'exec sleep 3600');
    ctx.latencies.set('kubectl run -> pod Ready', Date.now() - start);
    const out = await ctx.kubectl.out(['exec', '-i', 'shell', '--', 'sh', '-c', 'tr a-z A-Z; echo "[$(hostname)]"'], { stdin: 'hello from stdin\n' });
    expect(out === 'HELLO FROM STDIN\n[shell]\n', `exec -i printed ${JSON.stringify(out)}, expected "HELLO FROM STDIN\\n[shell]\\n"`);
    const failing = await ctx.kubectl.run(['exec', 'shell', '--', 'sh', '-c', 'echo to-stderr >&2; exit 3'], { allowFailure: true });
    expect(failing.code === 3, `kubectl exec of "exit 3" exited ${failing.code} (stderr ${JSON.stringify(failing.stderr)})`);
    expect(failing.stderr.includes('to-stderr'), `exec's stderr did not reach kubectl's: ${JSON.stringify(failing.stderr)}`);
  },
};

/** The N of each complete "line N" (a stopped stream may end in the middle of one). */
const numbersIn = (text: string): number[] => [...text.slice(0, text.lastIndexOf('\n') + 1).matchAll(/^line (\d+)$/gm)].map((m) => Number(m[1]));

export const logsFollow: ClusterCheck = {
  id: 'k2',
  title: 'kubectl logs -f: the history, then new lines as written, none lost or doubled',
  async run(ctx) {
    await runPod(ctx, 'counter', 'i=0; while true; do i=$((i+1)); echo "line $i"; sleep 0.2; done');
    const before = numbersIn(await ctx.kubectl.out(['logs', 'counter']));
    const last = before.length === 0 ? 0 : before[before.length - 1]!;
    const follow = ctx.kubectl.start(['logs', '-f', 'counter']);
    // Lines written after `logs -f` began must keep arriving through it.
    await follow.waitFor(new RegExp(`^line ${last + 10}$`, 'm'));
    await follow.stop();
    const seen = numbersIn(follow.stdout);
    const gaps = seen.filter((n, i) => n !== i + 1);
    expect(seen.length >= last + 10 && gaps.length === 0, `logs -f printed lines ${seen.slice(0, 5).join(',')}...${seen.slice(-5).join(',')} (${seen.length} lines), not 1..${last + 10} in order`);
  },
};

export const portForward: ClusterCheck = {
  id: 'k3',
  title: 'kubectl port-forward to a pod port: two HTTP requests answered',
  async run(ctx) {
    const text = `forwarded-${randomBytes(4).toString('hex')}`;
    await ctx.kubectl.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { terminationGracePeriodSeconds: 2, containers: [webContainer('web', text)] } });
    await waitCondition(ctx, 'pod/web', 'Ready');
    const fwd = ctx.kubectl.start(['port-forward', '--address=127.0.0.1', 'pod/web', ':8080']);
    const port = Number((await fwd.waitFor(/Forwarding from 127\.0\.0\.1:(\d+) -> 8080/))[1]);
    for (const attempt of [1, 2]) {
      const answer = await probe(`http://127.0.0.1:${port}/index.html`);
      expect(answer?.status === 200 && answer.body === `${text}\n`, `request ${attempt} through port-forward: ${answer === undefined ? 'no answer' : `HTTP ${answer.status} ${JSON.stringify(answer.body.slice(0, 200))}`}; kubectl: ${fwd.stderr.slice(-300)}`);
    }
    await fwd.stop();
  },
};

export const attach: ClusterCheck = {
  id: 'k4',
  title: 'kubectl attach -i: stdin reaches the running main process, its output comes back',
  async run(ctx) {
    await ctx.kubectl.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'talker' },
      spec: {
        terminationGracePeriodSeconds: 2,
        containers: [{ name: 'talker', image: IMAGE, imagePullPolicy: 'Never', stdin: true, command: ['sh', '-c', 'echo started; while read l; do echo "got:$l"; done'] }],
      },
    });
    await waitCondition(ctx, 'pod/talker', 'Ready');
    const session = ctx.kubectl.start(['attach', '-i', 'talker', '-c', 'talker']);
    const word = `ping-${randomBytes(3).toString('hex')}`;
    session.write(`${word}\n`);
    await session.waitFor(new RegExp(`got:${word}`));
    await session.stop();
    // The container kept running: attach's end is not the process's end.
    const logs = await ctx.kubectl.out(['logs', 'talker']);
    expect(logs.includes(`got:${word}`), `the attached reply is not in the container's log: ${JSON.stringify(logs)}`);
  },
};

export const copy: ClusterCheck = {
  id: 'k5',
  title: 'kubectl cp: a binary file into the pod, a directory out of it',
  async run(ctx) {
    await runPod(ctx, 'files', 'exec sleep 3600');
    const data = randomBytes(300 * 1024);
    const local = join(ctx.scratchDir, `${ctx.namespace}-in.bin`);
    writeFileSync(local, data);
    await ctx.kubectl.run(['cp', local, 'files:/tmp/in.bin']);
    const sum = (await ctx.kubectl.out(['exec', 'files', '--', 'md5sum', '/tmp/in.bin'])).split(/\s+/)[0];
    const want = createHash('md5').update(data).digest('hex');
    expect(sum === want, `md5 in the pod ${sum}, of the local file ${want}`);
    await ctx.kubectl.run(['exec', 'files', '--', 'sh', '-c', 'mkdir -p /tmp/d/sub && echo from-pod > /tmp/d/sub/out.txt']);
    const dest = join(ctx.scratchDir, `${ctx.namespace}-out`);
    await ctx.kubectl.run(['cp', 'files:/tmp/d', dest]);
    let got: string;
    try {
      got = readFileSync(join(dest, 'sub', 'out.txt'), 'utf8');
    } catch (err) {
      throw new Error(`kubectl cp of /tmp/d left no ${join(dest, 'sub', 'out.txt')}: ${err instanceof Error ? err.message : String(err)}`);
    }
    expect(got === 'from-pod\n', `copied out ${JSON.stringify(got)}, expected "from-pod\\n"`);
  },
};
