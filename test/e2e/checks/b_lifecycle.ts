// b. Probes and restarts as the kubelet reports them on /pods: an httpGet readiness probe that
// turns Ready on and off, an exec liveness probe whose failure restarts the container, the three
// restart policies with their restart counts, and exit codes with the reasons Completed, Error and
// OOMKilled.
import { expect, startPod, startReadyPod, type Check } from '../check';
import type { Pod } from '../pod_types';
import { containerStatus, fullName, manifest, NAMESPACE, waitForPod } from '../pods';

const status = (pod: Pod, name: string) => {
  const s = containerStatus(pod, name);
  if (!s) throw new Error(`no status for container ${name}`);
  return s;
};

export const readinessHttpGet: Check = {
  id: 'b1',
  title: 'readiness httpGet probe: Ready follows the probe',
  async run(ctx) {
    const name = 'readiness';
    await startReadyPod(
      ctx,
      manifest({
        name,
        spec: {
          containers: [
            {
              name: 'web',
              command: ['sh', '-c', 'mkdir -p /www && echo ok > /www/ready.txt && cp /www/ready.txt /ready.bak && exec httpd -f -p 8080 -h /www'],
              ports: [{ containerPort: 8080 }],
              readinessProbe: { httpGet: { path: '/ready.txt', port: 8080 }, periodSeconds: 1, failureThreshold: 1 },
            },
          ],
        },
      }),
    );
    await ctx.kubelet.api.run(NAMESPACE, fullName(name), 'web', ['rm', '/www/ready.txt']);
    await waitForPod(ctx.kubelet, name, 'not Ready after the probe path went away', (p) => containerStatus(p, 'web')?.ready === false);
    await ctx.kubelet.api.run(NAMESPACE, fullName(name), 'web', ['cp', '/ready.bak', '/www/ready.txt']);
    const p = await waitForPod(ctx.kubelet, name, 'Ready again', (p) => containerStatus(p, 'web')?.ready === true);
    expect(status(p, 'web').restartCount === 0, `readiness must not restart: ${JSON.stringify(status(p, 'web'))}`);
  },
};

export const livenessExec: Check = {
  id: 'b2',
  title: 'liveness exec probe failing restarts the container',
  async run(ctx) {
    const name = 'liveness';
    await startReadyPod(
      ctx,
      manifest({
        name,
        spec: {
          containers: [
            {
              name: 'main',
              command: ['sh', '-c', 'touch /tmp/healthy; sleep 2; rm /tmp/healthy; exec sleep 3600'],
              livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 1, failureThreshold: 1 },
            },
          ],
        },
      }),
    );
    const p = await waitForPod(ctx.kubelet, name, 'restarted by its liveness probe', (p) => (containerStatus(p, 'main')?.restartCount ?? 0) >= 1 && containerStatus(p, 'main')?.lastState.terminated !== undefined);
    const last = status(p, 'main').lastState.terminated!;
    // The kubelet stops the container (SIGTERM to sleep, which dies of it): 137 or 143, reason Error.
    expect(last.reason === 'Error' && (last.exitCode === 137 || last.exitCode === 143), `lastState: expected Error 137/143, got ${JSON.stringify(last)}`);
  },
};

export const restartNever: Check = {
  id: 'b3',
  title: 'restartPolicy Never: Completed (0) and Error (3), phase Failed',
  async run(ctx) {
    const name = 'never';
    startPod(
      ctx,
      manifest({
        name,
        spec: {
          restartPolicy: 'Never',
          containers: [
            { name: 'ok', command: ['sh', '-c', 'exit 0'] },
            { name: 'bad', command: ['sh', '-c', 'echo failing >&2; exit 3'] },
          ],
        },
      }),
    );
    const p = await waitForPod(ctx.kubelet, name, 'phase Failed', (p) => p.status?.phase === 'Failed');
    const ok = status(p, 'ok');
    const bad = status(p, 'bad');
    expect(ok.state.terminated?.exitCode === 0 && ok.state.terminated.reason === 'Completed' && ok.restartCount === 0, `ok: ${JSON.stringify(ok)}`);
    expect(bad.state.terminated?.exitCode === 3 && bad.state.terminated.reason === 'Error' && bad.restartCount === 0, `bad: ${JSON.stringify(bad)}`);
    const logs = await ctx.kubelet.api.containerLogs(NAMESPACE, fullName(name), 'bad');
    expect(logs === 'failing\n', `logs of the exited container: ${JSON.stringify(logs)}`);
  },
};

export const restartOnFailure: Check = {
  id: 'b4',
  title: 'restartPolicy OnFailure: restarted once after exit 1, then Succeeded',
  async run(ctx) {
    const name = 'onfailure';
    startPod(
      ctx,
      manifest({
        name,
        spec: {
          restartPolicy: 'OnFailure',
          volumes: [{ name: 'state', emptyDir: {} }],
          containers: [{ name: 'main', command: ['sh', '-c', 'if [ -f /state/ran ]; then exit 0; fi; touch /state/ran; exit 1'], volumeMounts: [{ name: 'state', mountPath: '/state' }] }],
        },
      }),
    );
    const p = await waitForPod(ctx.kubelet, name, 'phase Succeeded', (p) => p.status?.phase === 'Succeeded');
    const s = status(p, 'main');
    expect(s.restartCount === 1, `restartCount: expected 1, got ${s.restartCount}`);
    expect(s.state.terminated?.exitCode === 0 && s.state.terminated.reason === 'Completed', `state: ${JSON.stringify(s.state)}`);
    expect(s.lastState.terminated?.exitCode === 1 && s.lastState.terminated.reason === 'Error', `lastState: ${JSON.stringify(s.lastState)}`);
  },
};

export const restartAlways: Check = {
  id: 'b5',
  title: 'restartPolicy Always: a container exiting 0 is restarted (count grows)',
  async run(ctx) {
    const name = 'always';
    startPod(ctx, manifest({ name, spec: { restartPolicy: 'Always', containers: [{ name: 'main', command: ['sh', '-c', 'exit 0'] }] } }));
    const p = await waitForPod(ctx.kubelet, name, 'restarted twice', (p) => (containerStatus(p, 'main')?.restartCount ?? 0) >= 2, 120_000);
    const s = status(p, 'main');
    expect(s.lastState.terminated?.exitCode === 0 && s.lastState.terminated.reason === 'Completed', `lastState: ${JSON.stringify(s.lastState)}`);
    expect(p.status?.phase === 'Running', `phase: expected Running, got ${p.status?.phase}`);
  },
};

export const oomKilled: Check = {
  id: 'b6',
  title: 'memory limit exceeded: OOMKilled, exit 137',
  async run(ctx) {
    const name = 'oom';
    startPod(
      ctx,
      manifest({
        name,
        spec: {
          restartPolicy: 'Never',
          // dd fills a 64 MiB buffer from /dev/zero: every page is touched, over the 16 MiB limit.
          containers: [{ name: 'main', command: ['dd', 'if=/dev/zero', 'of=/dev/null', 'bs=64M', 'count=1'], resources: { limits: { memory: '16Mi' } } }],
        },
      }),
    );
    const p = await waitForPod(ctx.kubelet, name, 'phase Failed', (p) => p.status?.phase === 'Failed');
    const t = status(p, 'main').state.terminated;
    expect(t?.reason === 'OOMKilled' && t.exitCode === 137, `state: expected OOMKilled 137, got ${JSON.stringify(t)}`);
  },
};
