// The host's AppArmor, read from /sys under `root` ("/" in berthd; a temp dir in tests): whether
// it is enabled (runc's rule: securityfs has apparmor/ and parameters/enabled starts with "Y"),
// which profiles are loaded, and loading containerd's default profile through apparmor_parser.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { failedPrecondition } from '../../errdefs/errors';
import type { AppArmorHost } from './apparmor';

export interface AppArmorHostOptions {
  /** Loads profile text into the kernel (default: `apparmor_parser -Kr`, reading stdin). */
  loadProfile?: (text: string) => void;
}

export function appArmorHostAt(root: string, opts: AppArmorHostOptions = {}): AppArmorHost {
  const at = (p: string) => path.join(root, p);
  const loadProfile = opts.loadProfile ?? ((text: string) => void execFileSync('apparmor_parser', ['-Kr'], { input: text, stdio: ['pipe', 'ignore', 'pipe'] }));
  const profileLoaded = (name: string): boolean => {
    let text: string;
    try {
      text = fs.readFileSync(at('sys/kernel/security/apparmor/profiles'), 'utf8');
    } catch {
      return false;
    }
    // Lines are "<name> (<mode>)".
    return text.split('\n').some((l) => l.startsWith(`${name} (`));
  };
  return {
    enabled: enabledAt(at),
    profileLoaded,
    ensureDefaultProfile(name: string): void {
      if (profileLoaded(name)) return;
      const exists = (macro: string) => fs.existsSync(at(path.join('etc/apparmor.d', macro)));
      try {
        loadProfile(defaultProfileText(name, exists('tunables/global'), exists('abstractions/base')));
      } catch (err) {
        const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
        throw failedPrecondition(`cannot load the default AppArmor profile ${name}: ${stderr || (err as Error).message}`, err);
      }
    },
  };
}

function enabledAt(at: (p: string) => string): boolean {
  if (!fs.existsSync(at('sys/kernel/security/apparmor'))) return false;
  try {
    const flag = fs.readFileSync(at('sys/module/apparmor/parameters/enabled'), 'utf8');
    return flag.length > 1 && flag.startsWith('Y');
  } catch {
    return false;
  }
}

/**
 * The default profile, with the rules of containerd's (and Docker's) generated one: everything
 * allowed but mounts, writes to /proc outside a process's own entries and /proc/sys/kernel/shm*,
 * /proc/kcore and sysrq-trigger, and writes to /sys outside /sys/fs/cgroup; signals and ptrace only
 * among processes under the same profile (and signals from unconfined host processes).
 */
export function defaultProfileText(name: string, tunables: boolean, base: boolean): string {
  return [
    tunables ? '#include <tunables/global>' : '',
    `profile ${name} flags=(attach_disconnected,mediate_deleted) {`,
    base ? '  #include <abstractions/base>' : '',
    '  network,',
    '  capability,',
    '  file,',
    '  umount,',
    '  signal (receive) peer=unconfined,',
    `  signal (send,receive) peer=${name},`,
    '  deny @{PROC}/* w,',
    '  deny @{PROC}/{[^1-9],[^1-9][^0-9],[^1-9s][^0-9y][^0-9s],[^1-9][^0-9][^0-9][^0-9/]*}/** w,',
    '  deny @{PROC}/sys/[^k]** w,',
    '  deny @{PROC}/sys/kernel/{?,??,[^s][^h][^m]**} w,',
    '  deny @{PROC}/sysrq-trigger rwklx,',
    '  deny @{PROC}/kcore rwklx,',
    '  deny mount,',
    '  deny /sys/[^f]*/** wklx,',
    '  deny /sys/f[^s]*/** wklx,',
    '  deny /sys/fs/[^c]*/** wklx,',
    '  deny /sys/fs/c[^g]*/** wklx,',
    '  deny /sys/fs/cg[^r]*/** wklx,',
    '  deny /sys/firmware/** rwklx,',
    '  deny /sys/kernel/security/** rwklx,',
    `  ptrace (trace,read,tracedby,readby) peer=${name},`,
    '}',
    '',
  ]
    .filter((l, i, all) => l !== '' || i === all.length - 1)
    .join('\n');
}
