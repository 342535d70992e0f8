// The busybox image: Debian's busybox-static at /bin/busybox with every applet hard-linked to it,
// a minimal /etc (root, nobody, and an unprivileged `berth` user for RunAsUser tests), and the
// directories a container expects.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { invalidArgument } from '../../internal/errdefs/errors';
import type { ImageSpec, LayerSpec } from './image';
import { BUSYBOX_IMAGE, DEFAULT_PATH_ENV } from './names';
import type { TarEntry } from './tarball';

const execFileAsync = promisify(execFile);

export const BUSYBOX_HOST_PATH = '/bin/busybox';
export const BUSYBOX_PATH_IN_IMAGE = 'bin/busybox';
export const BERTH_USER = { name: 'berth', uid: 1000, gid: 1000, home: '/home/berth' } as const;

export const PASSWD = [
  'root:x:0:0:root:/root:/bin/sh',
  'nobody:x:65534:65534:nobody:/nonexistent:/bin/false',
  `berth:x:${BERTH_USER.uid}:${BERTH_USER.gid}:berth:${BERTH_USER.home}:/bin/sh`,
  '',
].join('\n');

export const GROUP = ['root:x:0:', 'nobody:x:65534:', `berth:x:${BERTH_USER.gid}:`, ''].join('\n');

/** Applet paths (relative, e.g. "usr/bin/env") as the binary itself lists them, sorted. */
export async function listApplets(busyboxPath = BUSYBOX_HOST_PATH): Promise<string[]> {
  const { stdout } = await execFileAsync(busyboxPath, ['--list-full'], { maxBuffer: 1 << 20 });
  const applets = stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== BUSYBOX_PATH_IN_IMAGE);
  for (const applet of applets) {
    if (applet.startsWith('/') || applet.split('/').includes('..')) {
      throw invalidArgument(`${busyboxPath} --list-full printed an unsafe applet path ${JSON.stringify(applet)}`);
    }
  }
  return [...new Set(applets)].sort();
}

export function busyboxLayerEntries(binary: Buffer, applets: readonly string[]): TarEntry[] {
  const { uid, gid } = BERTH_USER;
  return [
    { kind: 'dir', path: 'bin', mode: 0o755 },
    { kind: 'dir', path: 'sbin', mode: 0o755 },
    { kind: 'dir', path: 'usr', mode: 0o755 },
    { kind: 'dir', path: 'usr/bin', mode: 0o755 },
    { kind: 'dir', path: 'usr/sbin', mode: 0o755 },
    { kind: 'dir', path: 'etc', mode: 0o755 },
    { kind: 'dir', path: 'dev', mode: 0o755 },
    { kind: 'dir', path: 'proc', mode: 0o555 },
    { kind: 'dir', path: 'sys', mode: 0o555 },
    { kind: 'dir', path: 'tmp', mode: 0o1777 },
    { kind: 'dir', path: 'root', mode: 0o700 },
    { kind: 'dir', path: 'home', mode: 0o755 },
    { kind: 'dir', path: 'home/berth', mode: 0o755, uid, gid },
    { kind: 'dir', path: 'var', mode: 0o755 },
    { kind: 'file', path: 'etc/passwd', mode: 0o644, data: Buffer.from(PASSWD) },
    { kind: 'file', path: 'etc/group', mode: 0o644, data: Buffer.from(GROUP) },
    { kind: 'file', path: BUSYBOX_PATH_IN_IMAGE, mode: 0o755, data: binary },
    ...applets.map((path): TarEntry => ({ kind: 'hardlink', path, target: BUSYBOX_PATH_IN_IMAGE, mode: 0o755 })),
  ];
}

export function busyboxLayer(binary: Buffer, applets: readonly string[]): LayerSpec {
  return {
    entries: busyboxLayerEntries(binary, applets),
    compression: 'gzip',
    createdBy: 'berth hack/images: busybox-static with applet hard links, /etc/passwd, /etc/group',
  };
}

export function busyboxImageSpec(binary: Buffer, applets: readonly string[], name = BUSYBOX_IMAGE): ImageSpec {
  return { name, layers: [busyboxLayer(binary, applets)], config: { Cmd: ['sh'], Env: [DEFAULT_PATH_ENV] } };
}
