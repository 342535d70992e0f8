// What an image leaves when berthd is killed between removing its records and collecting its
// blobs and layers, when the image is removed under a container, or when an import moves its name
// to another image: collected (or kept listed) as containerd's GC and CRI image store do, never
// left on disk, counted by ImageFsInfo and listed by nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeStoppedDaemonDb } from '../../harness/daemon_db';
import { importBusyboxWith } from '../cri_containers/extra_layer_image';
import { createBerthEnv, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { until } from '../recovery/probes';
import { blobsOnDisk, committedSnapshots } from './env';

jest.setTimeout(180_000);

describe('image leftovers', () => {
  let env: BerthEnv;
  let archives: string;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
    archives = mkdtempSync(join(tmpdir(), 'berth-leftovers-'));
  });

  afterAll(async () => {
    await env?.close();
    if (archives) rmSync(archives, { recursive: true, force: true });
  });

  /** Imports busybox plus a layer of its own; returns its ID and the layer snapshots it added. */
  async function importOwn(name: string, marker: string): Promise<{ id: string; ownSnapshots: string[]; ownBlobs: string[] }> {
    const snapshotsBefore = new Set(committedSnapshots(env.daemon.root));
    const blobsBefore = new Set(blobsOnDisk(env.daemon.root));
    await importBusyboxWith(env.client, archives, name, [{ name: marker, data: marker.repeat(100) }]);
    const id = (await env.client.image.ImageStatus({ image: { image: name } })).image!.id;
    const ownSnapshots = committedSnapshots(env.daemon.root).filter((s) => !snapshotsBefore.has(s));
    const ownBlobs = blobsOnDisk(env.daemon.root).filter((b) => !blobsBefore.has(b));
    // Its layer (and its config and manifest blobs, and the first time the uncompressed base layer's).
    expect([ownSnapshots.length, ownBlobs.length >= 3, ownBlobs.includes(id)]).toEqual([1, true, true]);
    return { id, ownSnapshots, ownBlobs };
  }

  const gone = (root: string, own: { ownSnapshots: string[]; ownBlobs: string[] }) => (): boolean => {
    const blobs = new Set(blobsOnDisk(root));
    const snapshots = new Set(committedSnapshots(root));
    return own.ownBlobs.every((b) => !blobs.has(b)) && own.ownSnapshots.every((s) => !snapshots.has(s));
  };

  it("collects after the start what an image left when a kill came between removing its records and collecting", async () => {
    const own = await importOwn('berth.test/leftover:1', 'killed');
    await env.stop();
    // The state a kill leaves right after RemoveImage's records were deleted, before its GC.
    writeStoppedDaemonDb(env.daemon.root, (db) => void db.prepare('DELETE FROM images WHERE config_digest = ?').run(own.id));
    await env.start();
    await until("the removed image's blobs and layer collected after the start", gone(env.daemon.root, own));
    const { images } = await env.client.image.ListImages({});
    expect(images.map((i) => i.id)).not.toContain(own.id);
    expect(images).toHaveLength(2); // busybox and pause, untouched
  });

  it("collects an image's layer once the container that kept it after its RemoveImage is removed", async () => {
    const own = await importOwn('berth.test/inuse:1', 'inuse');
    const { podId, config } = await env.runPod('inuse');
    const id = await env.create(podId, config, 'main', SLEEPER, { image: { image: 'berth.test/inuse:1' } });
    await env.client.image.RemoveImage({ image: { image: 'berth.test/inuse:1' } });
    // The container still needs the layer (containerd lets an image in use be removed).
    expect(committedSnapshots(env.daemon.root)).toEqual(expect.arrayContaining(own.ownSnapshots));

    await env.client.runtime.RemoveContainer({ container_id: id });
    await until("the removed image's layer collected after its container went", gone(env.daemon.root, own));
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('keeps an image whose name an import moved to another image listed by its ID, with no tags, until it is removed', async () => {
    const first = await importOwn('berth.test/moved:dev', 'first');
    const second = await importOwn('berth.test/moved:dev', 'second');
    const { images } = await env.client.image.ListImages({});
    expect(images.find((i) => i.id === first.id)).toMatchObject({ repo_tags: [], repo_digests: [] });
    expect(images.find((i) => i.id === second.id)).toMatchObject({ repo_tags: ['berth.test/moved:dev'], repo_digests: [] });

    await env.client.image.RemoveImage({ image: { image: first.id } });
    // Its config and its own layer go; the base layer's blob stays, the second image's too.
    await until('the untagged image collected', gone(env.daemon.root, { ownSnapshots: first.ownSnapshots, ownBlobs: [first.id] }));
    expect(blobsOnDisk(env.daemon.root)).toEqual(expect.arrayContaining(second.ownBlobs));
    await env.client.image.RemoveImage({ image: { image: second.id } });
  });
});
