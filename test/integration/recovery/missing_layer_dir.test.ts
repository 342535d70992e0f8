// Restart with a layer's snapshot directory gone (a partial restore, fsck's lost+found, an
// operator's rm while berthd was down): the start logs it, and the layer is unpacked again by the
// operator's obvious fix, a re-import (or by the pod start that unpacks its image), instead of every
// pod and container failing at mount with ENOENT while re-imports answer OK and repair nothing.
// A pod whose rootfs stands on the lost layer keeps its record until it is removed.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { importTestImages } from '../../harness/berth_env';
import { PAUSE_IMAGE } from '../../harness/images';
import { createBerthEnv, deadline, type BerthEnv } from './berth_env';
import { dbRows, leaks } from './host_state';

jest.setTimeout(300_000);

const snapshotDir = (env: BerthEnv, id: number) => join(env.daemon.root, 'overlayfs', 'snapshots', String(id));

/** Snapshot rows whose own fs directory is not on disk. */
function rowsWithoutDirs(env: BerthEnv): string[] {
  return dbRows(env.daemon.root)
    .snapshots.filter((s) => !existsSync(join(snapshotDir(env, s.id), 'fs')))
    .map((s) => s.key);
}

/** The chain ID of the image's top layer (ImageStatus verbose), the parent of every rootfs on it. */
async function topChainId(env: BerthEnv, image: string): Promise<string> {
  const status = await env.client.image.ImageStatus({ image: { image }, verbose: true });
  return (JSON.parse(status.info.info!) as { chainID: string }).chainID;
}

describe('a layer snapshot directory deleted while berthd was down', () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });

  afterAll(async () => {
    await env?.close();
  });

  it('is logged at start, and a re-import unpacks it again so pods and containers run', async () => {
    const committed = dbRows(env.daemon.root).snapshots.filter((s) => s.kind === 'committed');
    expect(committed.length).toBeGreaterThan(0);
    await env.stop();
    for (const s of committed) rmSync(snapshotDir(env, s.id), { recursive: true });

    await env.start();
    await importTestImages(env.client);
    const { podId, config } = await env.runPod('after-reimport');
    const id = await env.create(podId, config, 'app', ['sh', '-c', 'test -x /bin/sh']);
    await env.client.runtime.StartContainer({ container_id: id });
    expect(await env.waitState(id, 'CONTAINER_EXITED')).toMatchObject({ exit_code: 0 });
    expect(rowsWithoutDirs(env)).toEqual([]);
    for (const s of committed) {
      const line = env.daemon.stderr().split('\n').find((l) => l.includes('committed snapshot directory is missing') && l.includes(s.key));
      expect(line).toContain('"level":"error"');
      expect(line).toContain(join(snapshotDir(env, s.id), 'fs'));
    }

    await env.removeAll();
    expect(leaks(env.host())).toEqual([]);
  });

  it('keeps a pod whose rootfs stands on the lost layer, while new pods unpack the layer again', async () => {
    const old = await env.runPod('on-lost-layer');
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: old.podId }, deadline());
    const pauseTop = await topChainId(env, PAUSE_IMAGE);
    const layer = dbRows(env.daemon.root).snapshots.find((s) => s.key === pauseTop)!;
    await env.stop();
    rmSync(snapshotDir(env, layer.id), { recursive: true });

    await env.start();
    const kept = await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: old.podId });
    expect(kept.status!.state).toBe('SANDBOX_NOTREADY');
    // No re-import: RunPodSandbox unpacks its pause image itself once the chain ID is free.
    const { podId } = await env.runPod('new-on-same-image');
    expect((await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId })).status!.state).toBe('SANDBOX_READY');
    await env.client.image.ImageFsInfo({});

    // The old pod's broken chain goes with it: nothing names it once the pod is removed.
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: old.podId }, deadline());
    const gc = await env.client.admin.GarbageCollect({});
    expect(gc.removed_snapshots).toEqual([`broken-${layer.id}-${pauseTop}`]);
    expect(rowsWithoutDirs(env)).toEqual([]);

    await env.removeAll();
    expect(leaks(env.host())).toEqual([]);
  });
});
