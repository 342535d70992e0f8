// An image of 130 layers (Docker's limit is 127; some build tools make more), imported and run
// through a real berthd: the unpack's overlay of every lower layer is longer than one page of mount
// data under berth's root, and is mounted with the lower dirs relative, as containerd mounts it.
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';
import { importBusyboxWithLayers } from './extra_layer_image';

jest.setTimeout(300_000);

const IMAGE = 'berth.test/many-layers:1';
const LAYERS = 129;

describe('an image of 130 layers', () => {
  let env: BerthEnv;
  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });
  afterAll(async () => env?.close());

  it('is imported, and a container sees every layer', async () => {
    const layers = Array.from({ length: LAYERS }, (_, i) => [
      { name: 'layers/', type: 'directory' as const },
      { name: `layers/${i}`, data: `${i}\n` },
    ]);
    await importBusyboxWithLayers(env.client, env.dir, IMAGE, layers);
    const { podId, config } = await env.runPod('many-layers');
    const id = await env.create(podId, config, 'app', SLEEPER, { image: { image: IMAGE } });
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    const listed = await env.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', 'ls /layers | wc -l; cat /layers/0 /layers/128'], timeout: 30 }, deadline());
    expect(listed.stdout.toString().split('\n').map((l) => l.trim())).toEqual([String(LAYERS), '0', '128', '']);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.image.RemoveImage({ image: { image: IMAGE } }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });
});
