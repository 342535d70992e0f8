// A minimal runc-valid OCI runtime spec for tests (the real builder lives in internal/cri/opts).
import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

export interface TestSpecOptions {
  args: string[];
  env?: string[];
  cwd?: string;
  /** Absolute cgroup parent, e.g. /berth-test-1a2b; the task's cgroup is <parent>/<id>. */
  cgroupParent: string;
  id: string;
  annotations?: Record<string, string>;
  hostname?: string;
  terminal?: boolean;
}

const CAPS = ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FSETID', 'CAP_FOWNER', 'CAP_MKNOD', 'CAP_NET_RAW', 'CAP_SETGID',
  'CAP_SETUID', 'CAP_SETFCAP', 'CAP_SETPCAP', 'CAP_NET_BIND_SERVICE', 'CAP_SYS_CHROOT', 'CAP_KILL', 'CAP_AUDIT_WRITE'];

export function testSpec(o: TestSpecOptions): Record<string, unknown> {
  return {
    ociVersion: '1.0.2',
    process: {
      terminal: o.terminal ?? false,
      user: { uid: 0, gid: 0 },
      args: o.args,
      env: o.env ?? ['PATH=/bin', 'HOME=/root'],
      cwd: o.cwd ?? '/',
      capabilities: { bounding: CAPS, effective: CAPS, permitted: CAPS },
      rlimits: [{ type: 'RLIMIT_NOFILE', hard: 1024, soft: 1024 }],
      noNewPrivileges: true,
    },
    root: { path: 'rootfs', readonly: false },
    hostname: o.hostname ?? 'berth-test',
    mounts: [
      { destination: '/proc', type: 'proc', source: 'proc', options: ['nosuid', 'noexec', 'nodev'] },
      { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
      { destination: '/dev/pts', type: 'devpts', source: 'devpts', options: ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620'] },
      { destination: '/dev/shm', type: 'tmpfs', source: 'shm', options: ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k'] },
      { destination: '/dev/mqueue', type: 'mqueue', source: 'mqueue', options: ['nosuid', 'noexec', 'nodev'] },
      { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
    ],
    linux: {
      namespaces: [{ type: 'pid' }, { type: 'ipc' }, { type: 'uts' }, { type: 'mount' }, { type: 'network' }],
      cgroupsPath: `${o.cgroupParent}/${o.id}`,
      resources: { devices: [{ allow: false, access: 'rwm' }] },
      maskedPaths: ['/proc/kcore', '/proc/keys', '/proc/timer_list', '/sys/firmware'],
      readonlyPaths: ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'],
    },
    annotations: o.annotations ?? {},
  };
}

const CGROUP_ROOT = '/sys/fs/cgroup';

function removeTree(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) removeTree(join(dir, entry.name));
  }
  try {
    rmdirSync(dir);
  } catch {
    // still populated (a process left) or already gone: the test's own asserts report that
  }
}

/** rmdir's the test's cgroup parent (and any child runc left) in every hierarchy. */
export function removeCgroupParent(parent: string): void {
  if (!parent.startsWith('/berth-test-')) throw new Error(`refusing to remove cgroup ${parent}`);
  for (const hierarchy of readdirSync(CGROUP_ROOT)) removeTree(join(CGROUP_ROOT, hierarchy, parent));
}

/** Hierarchies in which the cgroup parent still exists (for leak asserts). */
export function cgroupParentLeftovers(parent: string): string[] {
  return readdirSync(CGROUP_ROOT).filter((h) => existsSync(join(CGROUP_ROOT, h, parent)));
}
