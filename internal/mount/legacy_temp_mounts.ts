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

/** The directories an overlay mount stacks, as its options named them. */
function overlayDirs(superOptions: string): string[] {
  return superOptions.split(',').flatMap((o) => {
    const [key, value] = [o.slice(0, o.indexOf('=')), o.slice(o.indexOf('=') + 1)];
    return key === 'lowerdir' ? value.split(':') : key === 'upperdir' || key === 'workdir' ? [value] : [];
  });
}

/**
 * Mount points named as the old temp mounts, directly in `tmpDir`, of a directory under `ownDir`
 * (both real paths): a bind of one (same device, a root within the filesystem under ownDir's own),
 * or an overlay of them (a layer applied on its parents, a view of a parent chain).
 */
export function legacyTempMounts(ownDir: string, tmpDir: string, mounts: readonly MountInfoLine[]): string[] {
  const holder = mountHolding(ownDir, mounts);
  if (holder === undefined) return [];
  const inFs = posix.join(holder.root, holder.mountPoint === '/' ? ownDir : ownDir.slice(holder.mountPoint.length));
  const ours = (m: MountInfoLine) =>
    m.fstype === 'overlay'
      ? overlayDirs(m.superOptions).some((d) => d.startsWith(`${ownDir}/`))
      : m.device === holder.device && m.root.startsWith(`${inFs}/`);
  const found = mounts.filter((m) => dirname(m.mountPoint) === tmpDir && LEGACY_NAME.test(basename(m.mountPoint)) && ours(m));
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
