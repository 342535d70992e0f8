// A pod's host-side files: /etc/hostname, /etc/hosts, /etc/resolv.conf under its root dir, as
// containerd keeps them, and its /dev/shm tmpfs under its state dir. Containers of the pod
// bind-mount them (containerd's setupSandboxFiles) read-write, so they live on the root's disk:
// in the state dir (a tmpfs, normally) a container writing 50 MB into /etc/hosts held 50 MB of
// memory no stats counted.
import { lstatSync, mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import type { PodSandboxConfig__Output } from '../api/gen/runtime/v1/PodSandboxConfig';
import { failedPrecondition } from '../errdefs/errors';
import { copyHostFile } from '../fs/copy_host_file';
import { mountOne, unmount } from '../mount/mount';
import { buildSandboxFiles, DEFAULT_HOSTS } from './opts/sandbox_files';
import type { SandboxPaths } from './opts/types';

/** The pod's /dev/shm mountpoint. */
export const sandboxShmPath = (stateDir: string): string => join(stateDir, 'shm');

function isFile(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

export function sandboxPaths(dirs: { rootDir: string; stateDir: string }): SandboxPaths {
  // A pod an earlier berthd ran has its files in the state dir, and keeps them there. A file, not
  // just a name: berths of that time, run on a pod made since, mounted a directory they made there
  // for each file they missed, which must not turn the pod's own files away for good.
  const filesDir = isFile(join(dirs.stateDir, 'hostname')) ? dirs.stateDir : dirs.rootDir;
  return {
    hostnamePath: join(filesDir, 'hostname'),
    hostsPath: join(filesDir, 'hosts'),
    resolvPath: join(filesDir, 'resolv.conf'),
    shmPath: sandboxShmPath(dirs.stateDir),
  };
}

/** The node's files a pod's copies come from (containerd's etcHosts and resolvConfPath). */
export interface NodeFiles {
  hosts: string;
  resolvConf: string;
}

export const NODE_FILES: NodeFiles = { hosts: '/etc/hosts', resolvConf: '/etc/resolv.conf' };

const MODE = 0o644;

/** Copies a node file for the pod; a node without it fails the pod, as in containerd. */
async function copyNodeFile(src: string, dest: string): Promise<void> {
  if (!(await copyHostFile(src, dest, MODE))) throw failedPrecondition(`the node has no ${src} to copy for the pod`);
}

/** The node's hosts file, or a localhost table on a node without one. */
async function copyNodeHosts(src: string, dest: string): Promise<void> {
  if (!(await copyHostFile(src, dest, MODE))) await writeFile(dest, DEFAULT_HOSTS, { mode: MODE });
}

/**
 * Written on the thread pool, side by side: each create can wait for the disk's journal (issue 16).
 * The node's resolv.conf is read only for a pod whose DNS config gives none, as containerd.
 */
export async function writeSandboxFiles(config: PodSandboxConfig__Output, paths: SandboxPaths, node: NodeFiles = NODE_FILES): Promise<void> {
  const files = buildSandboxFiles(config, osHostname());
  await Promise.all([
    writeFile(paths.hostnamePath, files.hostname, { mode: MODE }),
    copyNodeHosts(node.hosts, paths.hostsPath),
    files.resolvConf === undefined ? copyNodeFile(node.resolvConf, paths.resolvPath) : writeFile(paths.resolvPath, files.resolvConf, { mode: MODE }),
  ]);
}

/** containerd's pod /dev/shm: a 64 MiB tmpfs, unless the pod shares the host's IPC namespace. */
export function mountSandboxShm(shmPath: string): void {
  mkdirSync(shmPath, { recursive: true, mode: 0o700 });
  mountOne({ type: 'tmpfs', source: 'shm', options: ['nodev', 'noexec', 'nosuid', 'mode=1777', 'size=65536k'] }, shmPath);
}

/** Unmounts the pod's shm if mounted; true when something was unmounted. */
export function unmountSandboxShm(shmPath: string): boolean {
  return unmount(shmPath);
}

export function usesHostIpc(config: PodSandboxConfig__Output): boolean {
  return config.linux?.security_context?.namespace_options?.ipc === 'NODE';
}

export function usesHostNetwork(config: PodSandboxConfig__Output): boolean {
  return config.linux?.security_context?.namespace_options?.network === 'NODE';
}
