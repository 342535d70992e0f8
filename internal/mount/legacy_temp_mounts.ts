// berths before 2026-12-06 made their temporary layer mounts in os.tmpdir() (berth-mount-XXXXXX),
// where no start swept them: one killed mid-unpack left them there for good, showing snapshot
// directories its successor then deleted. The start sweeps those whose mounted directory lies under
// this berth's own directory, and only those: another root's, or anything else in /tmp, is not ours.
import { readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, posix } from 'node:path';
import { mountHolding, parseMountInfo, type MountInfoLine } from './mount_info';
import { removeMountPoint } from './temp';

const LEGACY_NAME = /^berth-mount-[A-Za-z0-9]{6}$/;

/**
 * Mount points named as the old temp mounts, directly in `tmpDir`, of a directory under `ownDir`
 * (both real paths): same device, and a root within the filesystem under ownDir's own.
 */
export function legacyTempMounts(ownDir: string, tmpDir: string, mounts: readonly MountInfoLine[]): string[] {
  const holder = mountHolding(ownDir, mounts);
  if (holder === undefined) return [];
  const inFs = posix.join(holder.root, holder.mountPoint === '/' ? ownDir : ownDir.slice(holder.mountPoint.length));
  const found = mounts.filter(
    (m) =>
      dirname(m.mountPoint) === tmpDir &&
      LEGACY_NAME.test(basename(m.mountPoint)) &&
      m.device === holder.device &&
      m.root.startsWith(`${inFs}/`),
  );
  return [...new Set(found.map((m) => m.mountPoint))];
}

/** Unmounts and removes the old temp mounts of `ownDir`'s directories; returns those removed. */
export function cleanupLegacyTempMounts(ownDir: string, failed: (target: string, err: unknown) => void): string[] {
  let targets: string[];
  try {
    targets = legacyTempMounts(realpathSync(ownDir), realpathSync(tmpdir()), parseMountInfo(readFileSync('/proc/self/mountinfo', 'utf8')));
  } catch (err) {
    failed(ownDir, err);
    return [];
  }
  return targets.filter((target) => removeMountPoint(target, failed));
}
