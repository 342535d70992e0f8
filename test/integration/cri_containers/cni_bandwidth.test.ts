// The bandwidth capability end to end, with Debian's real `bandwidth` plugin chained after the
// bridge: a pod's kubernetes.io/ingress-bandwidth annotation becomes a tbf qdisc on its host-side
// veth and kubernetes.io/egress-bandwidth one on an ifb device, and StopPodSandbox removes both;
// an annotation that is no quantity fails RunPodSandbox and leaves no pod behind.
import { execFileSync } from 'node:child_process';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { deadline } from '../../harness/berth_env';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, type BerthEnv } from '../recovery/berth_env';

jest.setTimeout(180_000);

const tc = (args: string[]): string => execFileSync('tc', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Names of the host's ifb devices (the bandwidth plugin's egress shapers). */
const ifbDevices = (): string[] =>
  execFileSync('ip', ['-o', 'link', 'show', 'type', 'ifb'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(':')[1]!.trim().split('@')[0]!);

describe('CNI bandwidth capability from pod annotations', () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv();
    env.cni.writeConflist([{ type: 'bandwidth', capabilities: { bandwidth: true } }]);
    await env.start();
  });

  afterAll(async () => {
    await env?.close();
  });

  it('shapes the pod veth (ingress) and an ifb (egress); teardown removes both', async () => {
    const portsBefore = env.cni.bridgePorts();
    const ifbBefore = ifbDevices();
    const { podId } = await env.runPod('shaped', {
      annotations: { 'kubernetes.io/ingress-bandwidth': '10M', 'kubernetes.io/egress-bandwidth': '2M' },
    });
    const veths = env.cni.bridgePorts().filter((p) => !portsBefore.includes(p));
    expect(veths).toHaveLength(1);
    const veth = veths[0]!;
    expect(tc(['qdisc', 'show', 'dev', veth])).toMatch(/qdisc tbf .*rate 10Mbit/);
    const ifbs = ifbDevices().filter((d) => !ifbBefore.includes(d));
    expect(ifbs).toHaveLength(1);
    const ifb = ifbs[0]!;
    expect(tc(['qdisc', 'show', 'dev', ifb])).toMatch(/qdisc tbf .*rate 2Mbit/);

    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(env.cni.bridgePorts()).not.toContain(veth);
    expect(ifbDevices()).not.toContain(ifb);
    const left = tc(['qdisc', 'show']);
    expect(left).not.toContain(` dev ${veth} `);
    expect(left).not.toContain(` dev ${ifb} `);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
  });

  it('leaves a pod without the annotations unshaped', async () => {
    const portsBefore = env.cni.bridgePorts();
    const { podId } = await env.runPod('unshaped');
    const [veth] = env.cni.bridgePorts().filter((p) => !portsBefore.includes(p));
    expect(tc(['qdisc', 'show', 'dev', veth!])).not.toContain('tbf');
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
  });

  it('refuses an annotation that is no quantity, leaving no pod, IP or veth', async () => {
    const portsBefore = env.cni.bridgePorts();
    const ipsBefore = env.cni.allocatedIPs();
    const err = await callError(env.runPod('bad-rate', { annotations: { 'kubernetes.io/ingress-bandwidth': '10 Mbit' } }));
    expect(err.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(err.details).toContain('kubernetes.io/ingress-bandwidth');
    expect((await env.client.runtime.ListPodSandbox({})).items.filter((p) => p.metadata?.name === 'bad-rate')).toEqual([]);
    expect(env.cni.bridgePorts()).toEqual(portsBefore);
    expect(env.cni.allocatedIPs()).toEqual(ipsBefore);
  });
});
