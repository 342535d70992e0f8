// A mount described as data, like containerd's mount.Mount: snapshotters return these and the
// shim (or withTempMount) performs them. Nothing is mounted by constructing one.
export interface Mount {
  /** Filesystem type: "bind", "overlay", "tmpfs", ... */
  type: string;
  source: string;
  /** Optional sub-path under the mount target (used when a list mounts onto several points). */
  target?: string;
  /** fstab-style options: flags ("ro", "rbind", "nosuid") and fs data ("lowerdir=..."). */
  options: string[];
}
