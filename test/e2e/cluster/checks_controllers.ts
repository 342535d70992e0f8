// Controllers as a kubectl user drives them: a Deployment rolled out and then rolled over twice
// (env, then image), a Job run to completion and one that fails, a DaemonSet on the one node.
// What they see is the controllers' view, which rests on the kubelet's pod statuses and so on the
// runtime's container states, readiness probes and exit codes.
import { BUSYBOX_DOCKER_IMAGE } from '../../harness/images';
import { describePods, expect, IMAGE, waitCondition, webContainer, type ClusterCheck, type ClusterContext } from './cluster_check';
import { NODE_NAME } from './node_kubelet';

interface PodObject {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { nodeName?: string; containers: { image: string }[] };
  status?: {
    phase?: string;
    podIP?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: { ready: boolean; state?: { terminated?: { exitCode: number; reason?: string } } }[];
  };
}

const isReady = (p: PodObject) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** Pods of `selector` not being deleted (the old ones of a rollout linger in their grace period). */
async function livePods(ctx: ClusterContext, selector: string): Promise<PodObject[]> {
  const list = await ctx.kubectl.json<{ items: PodObject[] }>(['get', 'pods', '-l', selector]);
  return list.items.filter((p) => p.metadata.deletionTimestamp === undefined);
}

async function rolloutStatus(ctx: ClusterContext, what: string): Promise<number> {
  const start = Date.now();
  const r = await ctx.kubectl.run(['rollout', 'status', what, '--timeout=180s'], { timeoutMs: 240_000, allowFailure: true });
  if (r.code !== 0) throw new Error(`kubectl rollout status ${what}: exit ${r.code}: ${(r.stderr || r.stdout).trim().slice(-400)}\n${await describePods(ctx)}`);
  return Date.now() - start;
}

async function expectPodsEnv(ctx: ClusterContext, selector: string, want: string): Promise<void> {
  const pods = await livePods(ctx, selector);
  expect(pods.length === 2 && pods.every(isReady), `after the rollout: ${pods.length} live pods, ready ${pods.map(isReady).join(',')}:\n${await describePods(ctx, selector)}`);
  for (const p of pods) {
    const env = (await ctx.kubectl.out(['exec', p.metadata.name, '--', 'sh', '-c', 'echo "$VERSION"'])).trim();
    expect(env === want, `${p.metadata.name}: VERSION=${env}, expected ${want}`);
  }
}

export const deployment: ClusterCheck = {
  id: 'k6',
  title: 'Deployment: 2 replicas behind a readiness probe, then env and image rollouts',
  async run(ctx) {
    const selector = 'app=web';
    const deploy = (version: string, image: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        // A new pod must pass its readiness probe before an old one goes.
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { terminationGracePeriodSeconds: 2, containers: [webContainer('web', 'hello', { image, env: [{ name: 'VERSION', value: version }] })] },
        },
      },
    });
    await ctx.kubectl.apply(deploy('one', IMAGE));
    ctx.latencies.set('Deployment 2 replicas -> rolled out', await rolloutStatus(ctx, 'deployment/web'));
    const first = await livePods(ctx, selector);
    const ips = new Set(first.map((p) => p.status?.podIP));
    expect(first.length === 2 && ips.size === 2 && !ips.has(undefined), `2 pods with 2 IPs expected: ${first.map((p) => `${p.metadata.name} ${p.status?.podIP}`).join(', ')}`);
    await expectPodsEnv(ctx, selector, 'one');

    await ctx.kubectl.run(['set', 'env', 'deployment/web', 'VERSION=two']);
    ctx.latencies.set('Deployment env change -> rolled out', await rolloutStatus(ctx, 'deployment/web'));
    await expectPodsEnv(ctx, selector, 'two');
    const renamed = await livePods(ctx, selector);
    expect(renamed.every((p) => !first.some((f) => f.metadata.name === p.metadata.name)), 'the env rollout kept an old pod');

    await ctx.kubectl.run(['set', 'image', 'deployment/web', `web=${BUSYBOX_DOCKER_IMAGE}`]);
    await rolloutStatus(ctx, 'deployment/web');
    const third = await livePods(ctx, selector);
    expect(third.length === 2 && third.every((p) => isReady(p) && p.spec.containers[0]?.image === BUSYBOX_DOCKER_IMAGE), `after the image rollout:\n${await describePods(ctx, selector)}`);
    const history = await ctx.kubectl.out(['rollout', 'history', 'deployment/web']);
    const revisions = [...history.matchAll(/^(\d+)\s/gm)].map((m) => m[1]);
    expect(revisions.join(',') === '1,2,3', `rollout history lists revisions ${revisions.join(',')}:\n${history}`);
  },
};

export const job: ClusterCheck = {
  id: 'k7',
  title: 'Job: 3 completions (2 in parallel) Complete; a failing Job Failed',
  async run(ctx) {
    const jobOf = (name: string, script: string, spec: Record<string, unknown>) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: {
        ...spec,
        template: { spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 2, containers: [{ name: 'work', image: IMAGE, imagePullPolicy: 'Never', command: ['sh', '-c', script] }] } },
      },
    });
    await ctx.kubectl.apply(jobOf('sum', 'echo "job-done $((6 * 7))"', { completions: 3, parallelism: 2, backoffLimit: 2 }), jobOf('broken', 'echo failing; exit 4', { backoffLimit: 0 }));
    ctx.latencies.set('Job 3 completions -> Complete', await waitCondition(ctx, 'job/sum', 'complete', 180));
    const sum = await ctx.kubectl.json<{ status: { succeeded?: number; failed?: number } }>(['get', 'job', 'sum']);
    expect(sum.status.succeeded === 3 && (sum.status.failed ?? 0) === 0, `job sum: succeeded ${sum.status.succeeded}, failed ${sum.status.failed}`);
    const logs = await ctx.kubectl.out(['logs', 'job/sum']);
    expect(logs.trim() === 'job-done 42', `kubectl logs job/sum: ${JSON.stringify(logs)}`);
    const pods = await livePods(ctx, 'job-name=sum');
    const exits = pods.map((p) => p.status?.containerStatuses?.[0]?.state?.terminated);
    expect(pods.length === 3 && pods.every((p) => p.status?.phase === 'Succeeded') && exits.every((t) => t?.exitCode === 0 && t.reason === 'Completed'), `job sum's pods: ${JSON.stringify(pods.map((p) => [p.status?.phase, p.status?.containerStatuses?.[0]?.state]))}`);

    await waitCondition(ctx, 'job/broken', 'failed', 180);
    const broken = await livePods(ctx, 'job-name=broken');
    const term = broken[0]?.status?.containerStatuses?.[0]?.state?.terminated;
    expect(broken.length === 1 && broken[0]!.status?.phase === 'Failed' && term?.exitCode === 4 && term.reason === 'Error', `job broken's pods: ${JSON.stringify(broken.map((p) => [p.status?.phase, p.status?.containerStatuses?.[0]?.state]))}`);
  },
};

export const daemonSet: ClusterCheck = {
  id: 'k8',
  title: 'DaemonSet: one ready pod on the node, then a rolling update',
  async run(ctx) {
    const ds = (version: string) => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        updateStrategy: { type: 'RollingUpdate' },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { terminationGracePeriodSeconds: 2, containers: [webContainer('agent', 'agent', { env: [{ name: 'VERSION', value: version }] })] },
        },
      },
    });
    await ctx.kubectl.apply(ds('one'));
    ctx.latencies.set('DaemonSet -> rolled out', await rolloutStatus(ctx, 'daemonset/agent'));
    const status = async () => (await ctx.kubectl.json<{ status: { desiredNumberScheduled: number; numberReady: number; updatedNumberScheduled?: number } }>(['get', 'daemonset', 'agent'])).status;
    const s1 = await status();
    expect(s1.desiredNumberScheduled === 1 && s1.numberReady === 1, `daemonset status ${JSON.stringify(s1)}`);
    const pods = await livePods(ctx, 'app=agent');
    expect(pods.length === 1 && pods[0]!.spec.nodeName === NODE_NAME && isReady(pods[0]!), `daemonset pods: ${pods.map((p) => `${p.metadata.name} on ${p.spec.nodeName} ready=${isReady(p)}`).join(', ')}`);

    await ctx.kubectl.apply(ds('two'));
    await rolloutStatus(ctx, 'daemonset/agent');
    const after = await livePods(ctx, 'app=agent');
    expect(after.length === 1 && after[0]!.metadata.name !== pods[0]!.metadata.name && isReady(after[0]!), `after the update: ${await describePods(ctx, 'app=agent')}`);
    const env = (await ctx.kubectl.out(['exec', after[0]!.metadata.name, '--', 'sh', '-c', 'echo "$VERSION"'])).trim();
    expect(env === 'two', `the updated daemon pod has VERSION=${env}`);
  },
};
