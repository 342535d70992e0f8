// f. Pod deletion (its manifest removed): SIGTERM first and terminationGracePeriodSeconds
// honoured, SIGKILL once it has run out; and afterwards nothing of the pod is left in the runtime
// (containers, sandbox), on the bridge (veth, host-local IP) or as a shim.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, deletePod, startReadyPod, type Check, type E2eContext } from '../check';
import { fullName, manifest } from '../pods';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pod whose container records on a hostPath file that it started, got TERM, and finished its trap. */
function trappingPod(ctx: E2eContext, name: string, graceSeconds: number, trapSleep: number) {
  const dir = join(ctx.scratchDir, name);
  return {
    dir,
    pod: manifest({
      name,
      spec: {
        terminationGracePeriodSeconds: graceSeconds,
        volumes: [{ name: 'out', hostPath: { path: dir, type: 'DirectoryOrCreate' } }],
        containers: [
          {
            name: 'main',
            command: ['sh', '-c', `trap 'echo term >> /out/log; sleep ${trapSleep}; echo bye >> /out/log; exit 0' TERM; echo started >> /out/log; while true; do sleep 0.2; done`],
            volumeMounts: [{ name: 'out', mountPath: '/out' }],
          },
        ],
      },
    }),
  };
}

const readLog = (dir: string) => {
  try {
    return readFileSync(join(dir, 'log'), 'utf8');
  } catch {
    return '';
  }
};

export const graceHonoured: Check = {
  id: 'f1',
  title: 'deletion: SIGTERM, then terminationGracePeriodSeconds (30) honoured',
  async run(ctx) {
    const { dir, pod } = trappingPod(ctx, 'grace', 30, 3);
    await startReadyPod(ctx, pod);
    await deletePod(ctx, 'grace');
    const log = readLog(dir);
    expect(log === 'started\nterm\nbye\n', `the container's record: ${JSON.stringify(log)} (expected started, term, bye)`);
  },
};

export const graceExpires: Check = {
  id: 'f2',
  title: 'deletion: SIGKILL once terminationGracePeriodSeconds (2) runs out',
  async run(ctx) {
    const { dir, pod } = trappingPod(ctx, 'grace-kill', 2, 60);
    await startReadyPod(ctx, pod);
    await deletePod(ctx, 'grace-kill');
    const log = readLog(dir);
    expect(log === 'started\nterm\n', `the container's record: ${JSON.stringify(log)} (expected started, term and no bye)`);
  },
};

export const deletionCleansUp: Check = {
  id: 'f3',
  title: 'deletion leaves no container, sandbox, veth, IP or shim behind',
  async run(ctx) {
    const name = 'cleanup';
    const shimsBefore = new Set(ctx.runtime.peer.shims().map((s) => s.pid));
    const portsBefore = new Set(ctx.runtime.cni.bridgePorts());
    const ready = await startReadyPod(ctx, manifest({ name, spec: { containers: [{ name: 'a', command: ['sleep', '3600'] }, { name: 'b', command: ['sleep', '3600'] }] } }));
    const ip = ready.status?.podIP ?? '';
    expect(ctx.runtime.cni.allocatedIPs().includes(ip), `pod IP ${ip} not among host-local's allocations ${ctx.runtime.cni.allocatedIPs().join(',')}`);
    const selector = { label_selector: { 'io.kubernetes.pod.name': fullName(name) } };
    await deletePod(ctx, name);
    const cri = () => ctx.runtime.peer.cri.runtime;
    const leftovers = async () => {
      const sandboxes = (await cri().ListPodSandbox({ filter: selector })).items;
      const containers = (await cri().ListContainers({ filter: selector })).containers;
      const shims = ctx.runtime.peer.shims().filter((s) => !shimsBefore.has(s.pid));
      const ports = ctx.runtime.cni.bridgePorts().filter((p) => !portsBefore.has(p));
      const ipHeld = ctx.runtime.cni.allocatedIPs().includes(ip);
      const left: string[] = [];
      if (sandboxes.length > 0) left.push(`sandboxes ${sandboxes.map((s) => `${s.id.slice(0, 12)}:${s.state}`).join(',')}`);
      if (containers.length > 0) left.push(`containers ${containers.map((c) => `${c.metadata?.name}:${c.state}`).join(',')}`);
      if (shims.length > 0) left.push(`shims ${shims.map((s) => s.pid).join(',')}`);
      if (ports.length > 0) left.push(`bridge ports ${ports.join(',')}`);
      if (ipHeld) left.push(`IP ${ip} still allocated`);
      return left;
    };
    // The kubelet stops the pod at once and removes what is dead on its container GC (every minute).
    let left = await leftovers();
    for (let i = 0; i < 150 && left.length > 0; i++) {
      await sleep(1000);
      left = await leftovers();
    }
    expect(left.length === 0, `150 s after deletion: ${left.join('; ')}`);
  },
};
