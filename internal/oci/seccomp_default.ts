// berth's RuntimeDefault seccomp profile, built from containerd's table (seccomp_table.ts) the way
// containerd's DefaultProfile builds it: deny by default, allow the table's rules whose conditions
// hold for this host (architecture, kernel version) and the container's bounding set. runc skips
// names its libseccomp does not know, so names of newer syscalls are harmless.
import { constants } from 'node:os';
import { SECCOMP_ARCHITECTURES, SECCOMP_DEFAULT_ACTION, SECCOMP_DEFAULT_RULES, type SeccompRule } from './seccomp_table';
import type { LinuxSeccomp, LinuxSyscall } from './spec';

/** The host facts the profile depends on. */
export interface SeccompHost {
  /** Node's process.arch naming (x64, arm64, ...). */
  arch: string;
  /** uname release, e.g. "6.1.0-18-amd64". */
  kernelRelease: string;
}

// Node's process.arch -> Go's GOARCH, the names containerd's table is written in.
const GO_ARCH: Readonly<Record<string, string>> = {
  x64: 'amd64',
  ia32: '386',
  arm: 'arm',
  arm64: 'arm64',
  ppc64: 'ppc64le', // Node on Linux runs only little-endian ppc64
  s390: 's390',
  s390x: 's390x',
  riscv64: 'riscv64',
  mips: 'mips',
  mipsel: 'mipsle',
  loong64: 'loong64',
};

export function goArch(nodeArch: string): string {
  return GO_ARCH[nodeArch] ?? nodeArch;
}

/**
 * "kernel.major" of a uname release as containerd reads it (Sscanf "%d.%d": "3.12-1-amd64" is
 * 3.12); undefined when it does not start that way, and then no minKernel rule applies.
 */
export function parseKernelVersion(release: string): { kernel: number; major: number } | undefined {
  const m = /^\s*(\d+)\.(\d+)/.exec(release);
  return m === null ? undefined : { kernel: Number(m[1]), major: Number(m[2]) };
}

function kernelAtLeast(release: string, min: string): boolean {
  const have = parseKernelVersion(release);
  const want = parseKernelVersion(min);
  if (have === undefined || want === undefined) return false;
  return have.kernel > want.kernel || (have.kernel === want.kernel && have.major >= want.major);
}

/** Whether `rule` is part of the profile for this arch, kernel and bounding set. */
export function ruleApplies(rule: SeccompRule, arch: string, kernelRelease: string, bounding: ReadonlySet<string>): boolean {
  const inc = rule.includes ?? {};
  const exc = rule.excludes ?? {};
  if (inc.caps !== undefined && !inc.caps.some((c) => bounding.has(c))) return false;
  if (inc.arches !== undefined && !inc.arches.includes(arch)) return false;
  if (inc.minKernel !== undefined && !kernelAtLeast(kernelRelease, inc.minKernel)) return false;
  if (exc.caps !== undefined && exc.caps.some((c) => bounding.has(c))) return false;
  if (exc.arches !== undefined && exc.arches.includes(arch)) return false;
  return true;
}

function toSyscall(rule: SeccompRule): LinuxSyscall {
  const out: LinuxSyscall = { names: [...rule.names], action: rule.action };
  if (rule.errnoRet !== undefined) out.errnoRet = constants.errno[rule.errnoRet];
  if (rule.args !== undefined) out.args = rule.args.map((a) => ({ ...a }));
  return out;
}

/** The RuntimeDefault profile for a process whose bounding set is `bounding`, on `host`. */
export function defaultSeccompProfile(bounding: readonly string[], host: SeccompHost): LinuxSeccomp {
  const arch = goArch(host.arch);
  const caps = new Set(bounding);
  return {
    defaultAction: SECCOMP_DEFAULT_ACTION,
    architectures: [...(SECCOMP_ARCHITECTURES[arch] ?? [])],
    syscalls: SECCOMP_DEFAULT_RULES.filter((r) => ruleApplies(r, arch, host.kernelRelease, caps)).map(toSyscall),
  };
}
