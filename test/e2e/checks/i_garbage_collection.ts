// i. Garbage collection by the kubelet, as kubelet 1.20 does it (pkg/kubelet/kubelet.go
// StartGarbageCollection; kuberuntime_gc.go; images/image_gc_manager.go):
// - dead containers: every minute (ContainerGCPeriod), each (pod, container) keeps its newest
//   MaxPerPodContainer=1 dead instances (--maximum-dead-containers-per-container=1,
//   --minimum-container-ttl-duration=0s, set in kubelet.ts); the rest are RemoveContainer'd.
// - images: every 5 minutes (ImageGCPeriod), the first pass at start-up, which fails ("invalid
//   capacity 0") when cadvisor has no figures yet: the image may go at once or 5 minutes on. A pass
//   takes usage = 100 - available*100/capacity of the filesystem holding ImageFsInfo's
//   fs_id.mountpoint (the same figures as /stats/summary's node.runtime.imageFs) and, at or above
//   imageGCHighThresholdPercent, removes images no container uses (the sandbox image always
//   counts as used) and older than imageMinimumGCAge. Such thresholds would remove the test images
//   the other checks need, so this check runs last, restarts the kubelet with them for itself only
//   (pods are adopted, as h2 shows) and puts the run's config back afterwards.
import { expect, startPod, startReadyPod, type Check, type E2eContext } from '../check';
import type { Pod } from '../pod_types';
import { BUSYBOX_IMAGE, LAYERS3_IMAGE, PAUSE_IMAGE, testImages } from '../../harness/images';
import { allReady, containerStatus, describeStatus, fullName, manifest, NAMESPACE, waitForPod } from '../pods';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until `done` accepts its answer; throws `what(last)` after `timeoutMs` (a bound, not a timing assertion). */
async function pollUntil<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number, what: (last: T) => string, everyMs = 1000): Promise<T> {
  const giveUp = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > giveUp) throw new Error(what(v));
    await sleep(everyMs);
  }
}

// ---- dead-container GC ----

/** Runs 1-3 exit 1 (restarted after the 10, 20, 40 s back-offs); run 4 stays up, so the end state is stable. */
const CRASHES = 3;
const CRASHING_SCRIPT = `n=$(cat /state/runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > /state/runs; echo "run $n"; if [ $n -le ${CRASHES} ]; then exit 1; fi; exec sleep 3600`;
/** 2.5 container GC periods. */
const CONTAINER_GC_WAIT_MS = 150_000;

async function instancesOf(ctx: E2eContext, pod: string, container: string) {
  const filter = { label_selector: { 'io.kubernetes.pod.name': fullName(pod), 'io.kubernetes.container.name': container } };
  return (await ctx.runtime.peer.cri.runtime.ListContainers({ filter })).containers;
}

type Instances = Awaited<ReturnType<typeof instancesOf>>;
const describeInstances = (cs: Instances) => cs.map((c) => `attempt ${c.metadata?.attempt} ${c.state}`).join(', ') || 'none';

export const deadContainerGc: Check = {
  id: 'i1',
  title: 'dead-container GC (1 kept per container): ListContainers after the kubelet collects',
  async run(ctx) {
    const name = 'dead-containers';
    startPod(
      ctx,
      manifest({
        name,
        spec: {
          restartPolicy: 'Always',
          volumes: [{ name: 'state', emptyDir: {} }],
          containers: [{ name: 'main', command: ['sh', '-c', CRASHING_SCRIPT], volumeMounts: [{ name: 'state', mountPath: '/state' }] }],
        },
      }),
    );
    const crashedThenUp = (p: Pod) => {
      const s = containerStatus(p, 'main');
      return s?.restartCount === CRASHES && s.state.running !== undefined;
    };
    await waitForPod(ctx.kubelet, name, `running after ${CRASHES} restarts`, crashedThenUp, 240_000);
    // Each crash left a dead container; the kubelet's GC removes all but the newest.
    const left = await pollUntil(
      () => instancesOf(ctx, name, 'main'),
      (cs) => cs.filter((c) => c.state === 'CONTAINER_EXITED').length <= 1,
      CONTAINER_GC_WAIT_MS,
      (cs) => `dead instances not collected within ${CONTAINER_GC_WAIT_MS / 1000} s (2.5 container GC periods): ListContainers has ${describeInstances(cs)}`,
    );
    const dead = left.filter((c) => c.state === 'CONTAINER_EXITED');
    const running = left.filter((c) => c.state === 'CONTAINER_RUNNING');
    expect(dead.length === 1 && dead[0]!.metadata?.attempt === CRASHES - 1, `the newest dead instance (attempt ${CRASHES - 1}) must be kept: ${describeInstances(left)}`);
    expect(left.length === 2 && running.length === 1 && running[0]!.metadata?.attempt === CRASHES, `after GC: ${describeInstances(left)}`);
    // What a user sees is intact: the restart count, the last termination, `kubectl logs --previous`.
    const p = await waitForPod(ctx.kubelet, name, 'listed', () => true);
    const s = containerStatus(p, 'main');
    expect(
      s?.restartCount === CRASHES && s.state.running !== undefined && s.lastState.terminated?.exitCode === 1 && s.lastState.terminated.reason === 'Error',
      `status after GC: ${describeStatus(p)}`,
    );
    const previous = await ctx.kubelet.api.containerLogs(NAMESPACE, fullName(name), 'main', 'previous=true');
    expect(previous === `run ${CRASHES}\n`, `/containerLogs previous=true after GC: ${JSON.stringify(previous)}`);
  },
};

// ---- image GC ----

/** The second image GC pass (the first that surely has figures) comes ImageGCPeriod after the kubelet starts; plus margin. */
const IMAGE_GC_WAIT_MS = 5 * 60_000 + 90_000;
/** ImageFsInfo may lag (containerd refreshes its snapshot usage in the background). */
const FS_FIGURE_WAIT_MS = 90_000;
/** layers3 holds a 50 MiB file: its arrival and its removal must each move ImageFsInfo by this much. */
const EXTRA_IMAGE_MIN_BYTES = 40 << 20;

interface SummaryFs {
  availableBytes?: number;
  capacityBytes?: number;
  usedBytes?: number;
}

async function imageFsUsedBytes(ctx: E2eContext): Promise<number> {
  const fs = (await ctx.runtime.peer.cri.image.ImageFsInfo({})).image_filesystems[0];
  if (!fs?.used_bytes) throw new Error('ImageFsInfo reports no image filesystem');
  return Number(fs.used_bytes.value);
}

/** The kubelet's own view of the image fs: ImageFsInfo's used bytes, capacity/available of the fs of its mountpoint. */
async function summaryImageFs(ctx: E2eContext): Promise<SummaryFs> {
  const summary = JSON.parse(await ctx.kubelet.api.ok('/stats/summary')) as { node?: { runtime?: { imageFs?: SummaryFs } } };
  return summary.node?.runtime?.imageFs ?? {};
}

/** Image GC's own arithmetic (image_gc_manager.go GarbageCollect). */
const usagePercent = (fs: SummaryFs) => 100 - Math.floor((fs.availableBytes! * 100) / fs.capacityBytes!);

/** Runs `body` under the kubelet restarted with `overrides`, then restarts it on the run's own config whatever happened. */
async function withKubeletConfig(ctx: E2eContext, overrides: Record<string, unknown>, body: () => Promise<void>): Promise<void> {
  try {
    await ctx.kubelet.restartWith(overrides);
    await body();
  } catch (err) {
    await ctx.kubelet.restartWith({}).catch((restore: unknown) => ctx.log(`kubelet not back on the run's config: ${restore instanceof Error ? restore.message : String(restore)}`));
    throw err;
  }
  await ctx.kubelet.restartWith({});
}

const tagsOf = (list: { repo_tags: string[] }[]) => list.map((i) => i.repo_tags.join(',')).join('; ');

export const imageGc: Check = {
  id: 'i2',
  title: 'image GC (imageGCHighThresholdPercent under the image fs usage): unused image removed, used ones kept',
  async run(ctx) {
    const images = ctx.runtime.peer.cri.image;
    const before = new Set((await images.ListImages({})).images.map((i) => i.id));
    const usedBefore = await imageFsUsedBytes(ctx);
    await ctx.runtime.peer.importImage((await testImages()).layers3Oci);
    const extra = (await images.ListImages({})).images.filter((i) => !before.has(i.id));
    expect(extra.length === 1, `importing ${LAYERS3_IMAGE} added ${extra.length} images: ${tagsOf(extra)}`);
    const extraId = extra[0]!.id;
    const usedWith = await pollUntil(
      () => imageFsUsedBytes(ctx),
      (u) => u >= usedBefore + EXTRA_IMAGE_MIN_BYTES,
      FS_FIGURE_WAIT_MS,
      (u) => `ImageFsInfo used bytes ${usedBefore} -> ${u} after importing ${LAYERS3_IMAGE}: not up by ${EXTRA_IMAGE_MIN_BYTES}`,
    );
    // busybox is in use by a running container, pause as the sandbox image.
    const user = 'image-user';
    await startReadyPod(ctx, manifest({ name: user, spec: { containers: [{ name: 'main', command: ['sleep', '3600'] }] } }));

    const fs = await pollUntil(
      () => summaryImageFs(ctx),
      (f) => (f.capacityBytes ?? 0) > 0 && f.availableBytes !== undefined,
      60_000,
      (f) => `/stats/summary node.runtime.imageFs has no capacity (the kubelet cannot place ImageFsInfo's mountpoint, so image GC cannot run): ${JSON.stringify(f)}`,
    );
    const usage = usagePercent(fs);
    expect(usage >= 1, `image fs usage ${usage}% (${JSON.stringify(fs)}): no high threshold in 1..100 is at or below it`);
    // Half the usage, so GC stays due if the disk frees space meanwhile; low < high, as 1.20 validates.
    const high = Math.max(1, Math.floor(usage / 2));
    const low = high - 1;
    ctx.log(`image fs ${usage}% used (available ${fs.availableBytes} of ${fs.capacityBytes}): kubelet restarted with imageGCHighThresholdPercent ${high}, low ${low}`);
    // imageMinimumGCAge 0s would be defaulted to 2m.
    await withKubeletConfig(ctx, { imageGCHighThresholdPercent: high, imageGCLowThresholdPercent: low, imageMinimumGCAge: '1s' }, async () => {
      const left = await pollUntil(
        async () => (await images.ListImages({})).images,
        (list) => !list.some((i) => i.id === extraId),
        IMAGE_GC_WAIT_MS,
        (list) => `${LAYERS3_IMAGE} (${extraId}) still listed ${IMAGE_GC_WAIT_MS / 1000} s after the kubelet started with the GC thresholds: ${tagsOf(list)}`,
        2000,
      );
      for (const tag of [BUSYBOX_IMAGE, PAUSE_IMAGE]) expect(left.some((i) => i.repo_tags.includes(tag)), `${tag} (in use) was removed too; left: ${tagsOf(left)}`);
      await waitForPod(ctx.kubelet, user, 'Ready after image GC', allReady);
      await pollUntil(
        () => imageFsUsedBytes(ctx),
        (u) => u <= usedWith - EXTRA_IMAGE_MIN_BYTES,
        FS_FIGURE_WAIT_MS,
        (u) => `ImageFsInfo used bytes ${usedWith} -> ${u} after ${LAYERS3_IMAGE} was removed: not down by ${EXTRA_IMAGE_MIN_BYTES}`,
      );
    });
  },
};
