// The real SpecHost: what the spec builders need to know about this machine, read from /proc,
// /sys and /dev. This file (with apparmor_host.ts) is all of the spec builders that touches the
// host; the server creates one at start and passes it in.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { invalidArgument } from '../../errdefs/errors';
import { mountHolding, parseMountInfo } from '../../mount/mount_info';
import { effectiveCapabilitiesFromStatus } from '../../oci/capabilities';
import type { LinuxDevice } from '../../oci/spec';
import { appArmorHostAt } from './apparmor_host';
import type { MountPropagationKind, SpecHost } from './types';

const CGROUP2_SUPER_MAGIC = 0x63677270;
const S_IFMT = 0o170000;
const S_IFCHR = 0o020000;
const S_IFBLK = 0o060000;
const S_IFIFO = 0o010000;

// Directories under /dev that hold no device nodes of their own (containerd skips the same).
const SKIPPED_DEV_DIRS = new Set(['pts', 'shm', 'fd', 'mqueue', '.lxc', '.lxd-mounts', '.udev']);

/** glibc's major()/minor() of a 64-bit dev_t. */
export function splitDevNumber(rdev: bigint): { major: number; minor: number } {
  const major = ((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn);
  const minor = (rdev & 0xffn) | ((rdev >> 12n) & ~0xffn);
  return { major: Number(major), minor: Number(minor) };
}

/** The device node at `p` (not following a final symlink), or undefined when it is not a device. */
export function deviceFromPath(p: string): LinuxDevice | undefined {
  const st = fs.lstatSync(p, { bigint: true });
  const mode = Number(st.mode);
  const kind = mode & S_IFMT;
  const type = kind === S_IFCHR ? 'c' : kind === S_IFBLK ? 'b' : kind === S_IFIFO ? 'p' : undefined;
  if (type === undefined) return undefined;
  return { path: p, type, ...splitDevNumber(st.rdev), fileMode: mode & ~S_IFMT, uid: Number(st.uid), gid: Number(st.gid) };
}

/**
 * Entries a device directory may hold, all levels together. The walk is synchronous, on berthd's one
 * thread: a host_path of /usr (152,000 entries) held every other call for 3.6 s, and one of / for as
 * long as the whole disk takes. /dev itself holds a few hundred.
 */
export const MAX_DEVICE_DIR_ENTRIES = 16_384;

/**
 * Device nodes at `hostPath` (symlinks resolved): the node itself, or every node below a directory
 * (fifos and the console skipped). `containerPath` "" keeps host paths. A directory tree of more
 * than `maxEntries` entries is refused.
 */
export function devicesAt(hostPath: string, containerPath: string, maxEntries = MAX_DEVICE_DIR_ENTRIES): LinuxDevice[] {
  const budget = { left: maxEntries };
  return devicesBelow(hostPath, containerPath, () => {
    if (--budget.left < 0) throw invalidArgument(`device host_path ${JSON.stringify(hostPath)} holds more than ${maxEntries} entries`);
  });
}

function devicesBelow(hostPath: string, containerPath: string, count: () => void): LinuxDevice[] {
  let real: string;
  try {
    real = fs.realpathSync(hostPath);
  } catch (err) {
    throw invalidArgument(`device host_path ${JSON.stringify(hostPath)}: ${(err as Error).message}`, err);
  }
  if (!fs.statSync(real).isDirectory()) {
    const dev = deviceFromPath(real);
    if (dev === undefined) throw invalidArgument(`device host_path ${JSON.stringify(hostPath)} is not a device node`);
    return [{ ...dev, path: containerPath || dev.path }];
  }
  const out: LinuxDevice[] = [];
  for (const entry of fs.readdirSync(real, { withFileTypes: true })) {
    count();
    const at = path.join(real, entry.name);
    const inContainer = containerPath === '' ? '' : path.join(containerPath, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DEV_DIRS.has(entry.name)) out.push(...devicesBelow(at, inContainer, count));
      continue;
    }
    if (entry.name === 'console') continue;
    let dev: LinuxDevice | undefined;
    try {
      dev = deviceFromPath(at);
    } catch {
      continue; // vanished between readdir and lstat
    }
    if (dev === undefined || dev.type === 'p') continue;
    out.push({ ...dev, path: inContainer || dev.path });
  }
  return out;
}

/** Propagation of the mount holding `p`, from /proc/self/mountinfo (the last, innermost match wins). */
export function mountPropagationOf(p: string, mountInfoText: string): MountPropagationKind {
  const best = mountHolding(p, parseMountInfo(mountInfoText));
  if (best === undefined) return 'private';
  if (best.optional.some((o) => o.startsWith('shared:'))) return 'shared';
  if (best.optional.some((o) => o.startsWith('master:'))) return 'slave';
  return 'private';
}

function swapControllerAvailable(cgroupV2: boolean): boolean {
  if (!cgroupV2) return fs.existsSync('/sys/fs/cgroup/memory/memory.memsw.limit_in_bytes');
  const self = fs.readFileSync('/proc/self/cgroup', 'utf8').split('\n').find((l) => l.startsWith('0::'));
  return self !== undefined && fs.existsSync(path.join('/sys/fs/cgroup', self.slice(3), 'memory.swap.max'));
}

/** containerd's isHugetlbControllerPresent: a v1 hierarchy, or the v2 root's controller list. */
function hugetlbControllerAvailable(cgroupV2: boolean): boolean {
  if (!cgroupV2) return fs.existsSync('/sys/fs/cgroup/hugetlb');
  try {
    return fs.readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8').split(/\s+/).includes('hugetlb');
  } catch {
    return false;
  }
}

/** Reads this machine's facts once and returns a SpecHost whose look-ups hit the live system. */
export function hostFromSystem(): SpecHost {
  const cgroupV2 = fs.statfsSync('/sys/fs/cgroup').type === CGROUP2_SUPER_MAGIC;
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  return {
    hostname: os.hostname(),
    oomScoreAdj: Number(fs.readFileSync('/proc/self/oom_score_adj', 'utf8').trim()),
    capabilities: effectiveCapabilitiesFromStatus(status),
    cgroupV2,
    swapControllerAvailable: swapControllerAvailable(cgroupV2),
    hugetlbControllerAvailable: hugetlbControllerAvailable(cgroupV2),
    arch: process.arch,
    kernelRelease: os.release(),
    seccompEnabled: /^Seccomp:/m.test(status),
    resolveMountSource(hostPath: string): string {
      // Like containerd (and Docker), a missing host path becomes a new directory.
      if (!fs.existsSync(hostPath)) fs.mkdirSync(hostPath, { recursive: true, mode: 0o755 });
      return fs.realpathSync(hostPath);
    },
    mountPropagation: (p: string) => mountPropagationOf(p, fs.readFileSync('/proc/self/mountinfo', 'utf8')),
    devicesAt,
    allDevices: () => devicesAt('/dev', ''),
    readFile: (p: string) => fs.readFileSync(p, 'utf8'),
    apparmor: appArmorHostAt('/'),
  };
}
