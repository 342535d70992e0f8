// containerd's GC scheduler runs once shortly after every start (startup_delay, 100 ms): what a
// killed daemon left between removing an image's records and collecting what they held, or of a
// pull or import it never recorded (blobs, committed layer snapshots), goes then, instead of
// staying, counted by ImageFsInfo and listed by nothing, until some later RemoveImage.
import type { ImageService } from '../images/service';
import { messageOf } from '../errdefs/errors';
import type { Logger } from '../log/logger';
import type { Snapshotter } from '../snapshots/types';
import { collectImageSnapshots } from './snapshot_gc';

export const COLLECT_AFTER_START_MS = 1000;

/** Collects unreferenced blobs, then unused image snapshots, once `afterMs` after serving; returns what cancels it. */
export function collectAfterStart(sn: Snapshotter, images: ImageService, logger: Logger, afterMs = COLLECT_AFTER_START_MS): () => void {
  const log = logger.with({ component: 'gc' });
  const timer = setTimeout(() => {
    // Safe beside calls: a pull's blobs are held by its lease and its chains by the snapshot GC's gate,
    // as for RemoveImage's collection.
    void (async () => {
      const blobs = await images.gc();
      const snapshots = await collectImageSnapshots(sn, images, log);
      if (blobs.length > 0 || snapshots.length > 0) log.info('collected what no image holds after the start', { blobs: blobs.length, snapshots: snapshots.length });
    })().catch((err: unknown) => log.warn('collecting after the start failed', { error: messageOf(err) }));
  }, afterMs);
  timer.unref();
  return () => clearTimeout(timer);
}
