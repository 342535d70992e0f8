// The kubelet polling the scale scenario measures: a relist inspects (GetPodStatus calls) exactly
// the pods whose sandbox or container states changed since the last relist, nothing in a steady
// state; the stats calls run; an events stream the runtime refuses is reported, not fatal.
import { EventEmitter } from 'node:events';
import { KubeletPoller } from './kubelet_poll';
import { POD_UID_LABEL } from './kubelet_pod';
import type { Peer } from './peers/peer';
import { NetnsLedger } from './netns';

interface FakeContainer {
  id: string;
  pod_sandbox_id: string;
  state: string;
  labels: Record<string, string>;
}

function fakePeer(stream: EventEmitter) {
  const calls: string[] = [];
  const pods = ['a', 'b'].map((uid) => ({ id: `pod-${uid}`, state: 'SANDBOX_READY', metadata: { uid }, labels: { [POD_UID_LABEL]: uid } }));
  const containers: FakeContainer[] = ['a', 'b'].flatMap((uid) =>
    [1, 2].map((k) => ({ id: `c-${uid}${k}`, pod_sandbox_id: `pod-${uid}`, state: 'CONTAINER_RUNNING', labels: { [POD_UID_LABEL]: uid } })),
  );
  type Filter = { filter?: { label_selector?: Record<string, string> } };
  const byLabel = <T extends { labels: Record<string, string> }>(items: T[], req: Filter) =>
    items.filter((i) => Object.entries(req.filter?.label_selector ?? {}).every(([k, v]) => i.labels[k] === v));
  const runtime = {
    ListPodSandbox: async (req: Filter) => (calls.push(`ListPodSandbox ${JSON.stringify(req.filter ?? {})}`), { items: byLabel(pods, req) }),
    ListContainers: async (req: Filter) =>
      (calls.push(`ListContainers ${JSON.stringify(req.filter ?? {})}`), { containers: byLabel(containers, req).map((c) => ({ ...c })) }),
    PodSandboxStatus: async (req: { pod_sandbox_id: string }) => (calls.push(`PodSandboxStatus ${req.pod_sandbox_id}`), { status: {} }),
    ContainerStatus: async (req: { container_id: string }) => (calls.push(`ContainerStatus ${req.container_id}`), { status: {} }),
    ListContainerStats: async () => (calls.push('ListContainerStats'), { stats: [] }),
    ListPodSandboxStats: async () => (calls.push('ListPodSandboxStats'), { stats: [] }),
  };
  const image = { ImageFsInfo: async () => (calls.push('ImageFsInfo'), { image_filesystems: [] }) };
  const raw = { runtime: { GetContainerEvents: () => Object.assign(stream, { cancel: () => undefined }) } };
  const peer = { name: 'berth', pid: process.pid, cri: { runtime, image, raw } } as unknown as Peer;
  return { peer, calls, containers };
}

const ctx = { runId: 'test', netns: new NetnsLedger(), aborted: () => false };

describe('KubeletPoller', () => {
  it('inspects only the pod whose container changed, with the calls of the kubelet GetPodStatus', async () => {
    const stream = new EventEmitter();
    const { peer, calls, containers } = fakePeer(stream);
    const poller = await KubeletPoller.open(peer, ctx);
    containers.find((c) => c.id === 'c-b2')!.state = 'CONTAINER_EXITED';
    stream.emit('data', { container_id: 'c-b2' });
    calls.length = 0;
    const result = await poller.run(1);
    poller.close();
    expect(result.inspections).toBe(1);
    const statusCalls = calls.filter((c) => c.includes('Status '));
    expect(statusCalls).toEqual(['PodSandboxStatus pod-b', 'ContainerStatus c-b1', 'ContainerStatus c-b2']);
    expect(calls).toContain(`ListContainers ${JSON.stringify({ label_selector: { [POD_UID_LABEL]: 'b' } })}`);
    expect(calls).toEqual(expect.arrayContaining(['ListContainerStats', 'ListPodSandboxStats', 'ImageFsInfo']));
    expect(result.events).toBe(1);
  });

  it('makes no status call in a steady state, and reports an events stream the runtime refused', async () => {
    const stream = new EventEmitter();
    const { peer, calls } = fakePeer(stream);
    const poller = await KubeletPoller.open(peer, ctx);
    stream.emit('error', Object.assign(new Error('12 UNIMPLEMENTED: method GetContainerEvents not implemented'), { code: 12, details: 'not implemented' }));
    calls.length = 0;
    const result = await poller.run(1);
    poller.close();
    expect(result.inspections).toBe(0);
    expect(calls.filter((c) => c.includes('Status '))).toEqual([]);
    expect(result.events).toBe('not implemented (UNIMPLEMENTED)');
  });
});
