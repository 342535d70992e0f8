// The pause image pulled by RunPodSandbox from a registry that drips its answer: the pull ends with
// the caller (its connection closed), the pod is undone and its name freed, so the kubelet's retry
// is not refused as "reserved" for as long as the registry drags the download out.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { testImages } from '../../harness/images';
import { pushImage, startRegistry, type RunningRegistry } from '../../harness/registry';
import { startProxy, type RegistryProxy } from '../images/registry_proxy';
import { createBerthEnv, deadline, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';
import { until } from '../recovery/probes';

jest.setTimeout(180_000);

describe('a sandbox image whose registry drips', () => {
  let registry: RunningRegistry;
  let proxy: RegistryProxy;
  let env: BerthEnv;
  let stalling = true;

  beforeAll(async () => {
    const { pauseOci } = await testImages();
    registry = await startRegistry();
    await pushImage(registry.url, pauseOci, 'slow/pause:3.9');
    // The manifest comes a byte every 500 ms (its blobs are those of the imported pause).
    proxy = await startProxy({ target: registry.url, drip: (p) => stalling && p.includes('/manifests/') });
    env = await createBerthEnv({ criToml: `sandbox_image = "${proxy.host}/slow/pause:3.9"` });
    await env.start();
  });
  afterAll(async () => {
    await env?.close();
    await proxy?.close();
    await registry?.stop();
  });

  it('RunPodSandbox gives up at its deadline, the download stops and the same pod can be asked for again', async () => {
    const config = env.podConfig('slow-pause');
    const err = await callError(env.client.runtime.RunPodSandbox({ config }, deadline(3_000)));
    expect(err.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    await until('the stalled download is closed', () => proxy.stalled.length === 1);
    await proxy.stalled[0]!.closed;
    stalling = false;
    const { pod_sandbox_id } = await env.client.runtime.RunPodSandbox({ config }, deadline());
    expect((await env.client.runtime.PodSandboxStatus({ pod_sandbox_id }, deadline())).status?.state).toBe('SANDBOX_READY');
    await env.removeAll();
    expect(leaks(env.host())).toEqual([]);
  });
});
