// h. Restarts under a running pod: the runtime killed with SIGKILL and started again while the
// kubelet keeps running, then the kubelet restarted while the runtime runs. Either way the pod's
// containers and sandbox must be the same ones afterwards (adopted, not recreated), none
// restarted, all Ready.
import { expect, startReadyPod, type Check, type E2eContext } from '../check';
import type { Pod } from '../pod_types';
import { allReady, describeStatus, fullName, manifest, NAMESPACE, waitForPod } from '../pods';

/** How long the kubelet is watched after a restart: several PLEG relists and pod syncs. */
const OBSERVE_MS = 20_000;

function identity(pod: Pod): string {
  return (pod.status?.containerStatuses ?? []).map((c) => `${c.name}=${c.containerID}:${c.restartCount}`).sort().join(' ');
}

async function sandboxIds(ctx: E2eContext, name: string): Promise<string> {
  const items = (await ctx.runtime.peer.cri.runtime.ListPodSandbox({ filter: { label_selector: { 'io.kubernetes.pod.name': fullName(name) } } })).items;
  return items.map((s) => `${s.id}:${s.state}`).sort().join(',');
}

async function steadyPod(ctx: E2eContext, name: string): Promise<{ before: string; sandboxes: string }> {
  const pod = await startReadyPod(
    ctx,
    manifest({
      name,
      spec: {
        containers: [
          { name: 'web', command: ['sh', '-c', 'mkdir -p /www && echo ok > /www/index.html && exec httpd -f -p 8080 -h /www'], readinessProbe: { httpGet: { path: '/index.html', port: 8080 }, periodSeconds: 1 } },
          { name: 'idle', command: ['sleep', '3600'], livenessProbe: { exec: { command: ['true'] }, periodSeconds: 1 } },
        ],
      },
    }),
  );
  return { before: identity(pod), sandboxes: await sandboxIds(ctx, name) };
}

async function expectUnchanged(ctx: E2eContext, name: string, was: { before: string; sandboxes: string }): Promise<void> {
  await new Promise((r) => setTimeout(r, OBSERVE_MS));
  const pod = await waitForPod(ctx.kubelet, name, 'Ready', allReady);
  expect(identity(pod) === was.before, `containers changed: before ${was.before}; after ${identity(pod)} (${describeStatus(pod)})`);
  const sandboxes = await sandboxIds(ctx, name);
  expect(sandboxes === was.sandboxes, `sandboxes changed: before ${was.sandboxes}; after ${sandboxes}`);
}

export const runtimeKilled: Check = {
  id: 'h1',
  title: 'runtime kill -9 + restart under the kubelet: no container restarted',
  async run(ctx) {
    const name = 'survive-runtime';
    const was = await steadyPod(ctx, name);
    await ctx.runtime.peer.restart('SIGKILL', async (cri) => (await cri.runtime.ListContainers({})).containers.length >= 2);
    ctx.log(`runtime restarted, pid ${ctx.runtime.peer.pid}`);
    await expectUnchanged(ctx, name, was);
    const run = await ctx.kubelet.api.run(NAMESPACE, fullName(name), 'web', ['cat', '/www/index.html']);
    expect(run === 'ok\n', `/run after the runtime restart: ${JSON.stringify(run)}`);
  },
};

export const kubeletRestarted: Check = {
  id: 'h2',
  title: 'kubelet restart with the runtime running: pods adopted, not recreated',
  async run(ctx) {
    const name = 'survive-kubelet';
    const was = await steadyPod(ctx, name);
    await ctx.kubelet.stop('SIGTERM');
    await ctx.kubelet.launch();
    ctx.log(`kubelet restarted, pid ${ctx.kubelet.pid}`);
    await expectUnchanged(ctx, name, was);
  },
};
