// The spec every container starts from, like containerd's oci.populateDefaultUnixSpec: a private
// pid/ipc/uts/mount/network namespace each, the usual pseudo-filesystems, Docker's default
// capability set, masked /proc entries and a deny-all device cgroup. Builders then adjust it.
import type { Mount, Spec } from './spec';

/** runtime-spec version written into config.json; runc 1.1 reports "spec: 1.0.2-dev". */
export const OCI_VERSION = '1.0.2-dev';

/** Docker's (and containerd's) default capability set for unprivileged containers. */
export function defaultUnixCapabilities(): string[] {
  return [
    'CAP_CHOWN',
    'CAP_DAC_OVERRIDE',
    'CAP_FSETID',
    'CAP_FOWNER',
    'CAP_MKNOD',
    'CAP_NET_RAW',
    'CAP_SETGID',
    'CAP_SETUID',
    'CAP_SETFCAP',
    'CAP_SETPCAP',
    'CAP_NET_BIND_SERVICE',
    'CAP_SYS_CHROOT',
    'CAP_KILL',
    'CAP_AUDIT_WRITE',
  ];
}

// containerd's defaults minus /run (its CRI plugin always strips it): berth has only CRI users.
function defaultMounts(): Mount[] {
  return [
    { destination: '/proc', type: 'proc', source: 'proc', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
    {
      destination: '/dev/pts',
      type: 'devpts',
      source: 'devpts',
      options: ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620', 'gid=5'],
    },
    { destination: '/dev/shm', type: 'tmpfs', source: 'shm', options: ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k'] },
    { destination: '/dev/mqueue', type: 'mqueue', source: 'mqueue', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
  ];
}

/**
 * A fresh default spec for container `id` in containerd-style namespace `namespace` (e.g. "k8s.io").
 * The cgroup path `/<namespace>/<id>` is the fallback when no cgroup parent is given.
 */
export function defaultUnixSpec(id: string, namespace: string): Spec {
  return {
    ociVersion: OCI_VERSION,
    root: { path: 'rootfs' },
    process: {
      cwd: '/',
      noNewPrivileges: true,
      user: { uid: 0, gid: 0 },
      capabilities: {
        bounding: defaultUnixCapabilities(),
        permitted: defaultUnixCapabilities(),
        effective: defaultUnixCapabilities(),
      },
      rlimits: [{ type: 'RLIMIT_NOFILE', hard: 1024, soft: 1024 }],
    },
    mounts: defaultMounts(),
    linux: {
      maskedPaths: [
        '/proc/acpi',
        '/proc/asound',
        '/proc/kcore',
        '/proc/keys',
        '/proc/latency_stats',
        '/proc/timer_list',
        '/proc/timer_stats',
        '/proc/sched_debug',
        '/sys/firmware',
        '/proc/scsi',
      ],
      readonlyPaths: ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'],
      cgroupsPath: `/${namespace}/${id}`,
      resources: { devices: [{ allow: false, access: 'rwm' }] },
      namespaces: [{ type: 'pid' }, { type: 'ipc' }, { type: 'uts' }, { type: 'mount' }, { type: 'network' }],
    },
  };
}
