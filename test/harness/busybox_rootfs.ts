// A tiny rootfs for tests, from Debian's static busybox: /bin/busybox plus hard links for the
// applets tests use, /etc/passwd and /etc/group, and empty mount points runc expects.
import { copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BUSYBOX = '/bin/busybox';
const APPLETS = ['sh', 'echo', 'cat', 'sleep', 'true', 'false', 'ls', 'id', 'kill', 'ps'];

/** Builds the rootfs in `dir` (created if missing) and returns `dir`. */
export function buildBusyboxRootfs(dir: string): string {
  for (const sub of ['bin', 'etc', 'tmp', 'proc', 'dev', 'sys', 'root']) mkdirSync(join(dir, sub), { recursive: true });
  copyFileSync(BUSYBOX, join(dir, 'bin', 'busybox'));
  for (const applet of APPLETS) linkSync(join(dir, 'bin', 'busybox'), join(dir, 'bin', applet));
  writeFileSync(join(dir, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n');
  writeFileSync(join(dir, 'etc', 'group'), 'root:x:0:\nnogroup:x:65534:\n');
  return dir;
}
