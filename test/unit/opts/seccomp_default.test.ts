// The RuntimeDefault seccomp profile against containerd 1.6.20's table: the rule table rule by rule
// against the facts in test/fixtures (read from containerd's seccomp_default.go), then the built
// profile for several hosts and bounding sets against what those facts say it must be.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSeccompProfile, parseKernelVersion } from '../../../internal/oci/seccomp_default';
import { SECCOMP_ARCHITECTURES, SECCOMP_DEFAULT_ACTION, SECCOMP_DEFAULT_RULES } from '../../../internal/oci/seccomp_table';
import type { LinuxSeccomp, LinuxSeccompArg, LinuxSyscall } from '../../../internal/oci/spec';
import { defaultUnixCapabilities } from '../../../internal/oci/spec';

interface ReferenceRule {
  names: string[];
  action: string;
  errnoRet?: 'ENOSYS';
  args?: LinuxSeccompArg[];
  includes?: { caps?: string[]; arches?: string[]; minKernel?: string };
  excludes?: { caps?: string[]; arches?: string[] };
}

interface Reference {
  defaultAction: string;
  architectures: Record<string, string[]>;
  rules: ReferenceRule[];
}

const reference = JSON.parse(readFileSync(join(__dirname, '../../fixtures/containerd-1.6.20-seccomp-default.json'), 'utf8')) as Reference;
const ENOSYS = 38; // x86, arm, s390, riscv alike

// What containerd's DefaultProfile emits for one Go arch, kernel and bounding set, read off the
// reference facts (kept apart from the generator's own evaluation on purpose).
function expectedProfile(goArch: string, kernel: [number, number] | undefined, bounding: string[]): LinuxSeccomp {
  const has = (caps: string[] | undefined) => (caps ?? []).some((c) => bounding.includes(c));
  const syscalls: LinuxSyscall[] = [];
  for (const r of reference.rules) {
    if (r.includes?.caps && !has(r.includes.caps)) continue;
    if (r.includes?.arches && !r.includes.arches.includes(goArch)) continue;
    if (r.includes?.minKernel) {
      const [k, m] = r.includes.minKernel.split('.').map(Number) as [number, number];
      if (kernel === undefined || kernel[0] < k || (kernel[0] === k && kernel[1] < m)) continue;
    }
    if (has(r.excludes?.caps)) continue;
    if (r.excludes?.arches?.includes(goArch)) continue;
    const s: LinuxSyscall = { names: r.names, action: r.action as LinuxSyscall['action'] };
    if (r.errnoRet) s.errnoRet = ENOSYS;
    if (r.args) s.args = r.args;
    syscalls.push(s);
  }
  return { defaultAction: reference.defaultAction as LinuxSeccomp['defaultAction'], architectures: reference.architectures[goArch] ?? [], syscalls };
}

/** Every (name, args) pair the profile allows, as comparable strings: order-free. */
function allowed(p: LinuxSeccomp): Set<string> {
  return new Set((p.syscalls ?? []).filter((s) => s.action === 'SCMP_ACT_ALLOW').flatMap((s) => s.names.map((n) => (s.args ? `${n} ${JSON.stringify(s.args)}` : n))));
}
const unconditionally = (p: LinuxSeccomp, name: string) => allowed(p).has(name);
const anyRule = (p: LinuxSeccomp, name: string) => (p.syscalls ?? []).some((s) => s.action === 'SCMP_ACT_ALLOW' && s.names.includes(name));

const LINUX_6_1 = { arch: 'x64', kernelRelease: '6.1.0-18-amd64' };
const DEFAULT_CAPS = defaultUnixCapabilities();

describe('the RuntimeDefault table is containerd 1.6.20 rule by rule', () => {
  it('has as many rules, the same default action and architectures', () => {
    expect(SECCOMP_DEFAULT_RULES).toHaveLength(reference.rules.length);
    expect(SECCOMP_DEFAULT_ACTION).toBe(reference.defaultAction);
    expect(JSON.parse(JSON.stringify(SECCOMP_ARCHITECTURES))).toEqual(reference.architectures);
  });

  it.each(reference.rules.map((r, i) => [i, r.names.length === 1 ? r.names[0] : `${r.names[0]}.. (${r.names.length} names)`, r] as const))(
    'rule %d (%s)',
    (i, _label, want) => {
      expect(JSON.parse(JSON.stringify(SECCOMP_DEFAULT_RULES[i]))).toEqual(want);
    },
  );
});

describe('defaultSeccompProfile builds what containerd builds', () => {
  it.each([
    ['amd64, default capabilities', 'x64', 'amd64', '6.1.0-18-amd64', [6, 1], DEFAULT_CAPS],
    ['amd64, CAP_SYS_ADMIN and CAP_SYS_PTRACE', 'x64', 'amd64', '5.10.0-28-amd64', [5, 10], [...DEFAULT_CAPS, 'CAP_SYS_ADMIN', 'CAP_SYS_PTRACE']],
    ['amd64, kernel 4.4, no capabilities', 'x64', 'amd64', '4.4.0-210-generic', [4, 4], []],
    ['amd64, unparsable kernel release', 'x64', 'amd64', 'weird', undefined, DEFAULT_CAPS],
    ['arm64, every gated capability', 'arm64', 'arm64', '6.6.0', [6, 6], reference.rules.flatMap((r) => r.includes?.caps ?? [])],
    ['s390x, default capabilities', 's390x', 's390x', '6.1.0', [6, 1], DEFAULT_CAPS],
    ['386 (ia32)', 'ia32', '386', '4.19.0', [4, 19], DEFAULT_CAPS],
    ['riscv64', 'riscv64', 'riscv64', '6.1.0', [6, 1], DEFAULT_CAPS],
    ['ppc64le', 'ppc64', 'ppc64le', '6.1.0', [6, 1], DEFAULT_CAPS],
  ] as const)('%s', (_name, nodeArch, goArch, release, kernel, caps) => {
    const got = defaultSeccompProfile([...caps], { arch: nodeArch, kernelRelease: release });
    expect(got).toEqual(expectedProfile(goArch, kernel === undefined ? undefined : [kernel[0], kernel[1]], [...caps]));
  });

  it('is plain JSON for config.json', () => {
    const p = defaultSeccompProfile(DEFAULT_CAPS, LINUX_6_1);
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });
});

describe('defaultSeccompProfile: the conditions', () => {
  it('allows what containerd allows to everyone, which berth used to refuse', () => {
    const p = defaultSeccompProfile([], LINUX_6_1);
    for (const name of ['seccomp', 'pkey_alloc', 'pkey_free', 'pkey_mprotect', 'adjtimex', 'clock_adjtime', 'futimesat', 'remap_file_pages', 'memfd_secret', 'modify_ldt', 'arch_prctl']) {
      expect([name, unconditionally(p, name)]).toEqual([name, true]);
    }
  });

  it('refuses what containerd refuses without the capability, which berth used to allow', () => {
    const p = defaultSeccompProfile(DEFAULT_CAPS, LINUX_6_1);
    for (const name of ['get_mempolicy', 'set_mempolicy', 'mbind', 'name_to_handle_at', 'pidfd_getfd', 'process_vm_readv', 'process_vm_writev', 'kcmp', 'signal', 'sigaction', 'sigpending', 'sigsuspend']) {
      expect([name, anyRule(p, name)]).toEqual([name, false]);
    }
  });

  it('allows ptrace from kernel 4.8 on, and before only with CAP_SYS_PTRACE', () => {
    expect(unconditionally(defaultSeccompProfile([], { arch: 'x64', kernelRelease: '4.8.0' }), 'ptrace')).toBe(true);
    expect(unconditionally(defaultSeccompProfile([], { arch: 'x64', kernelRelease: '5.0.0' }), 'ptrace')).toBe(true);
    expect(unconditionally(defaultSeccompProfile([], { arch: 'x64', kernelRelease: '4.7.10' }), 'ptrace')).toBe(false);
    expect(unconditionally(defaultSeccompProfile([], { arch: 'x64', kernelRelease: 'not-a-version' }), 'ptrace')).toBe(false);
    const old = defaultSeccompProfile(['CAP_SYS_PTRACE'], { arch: 'x64', kernelRelease: '4.4.0' });
    for (const name of ['ptrace', 'process_vm_readv', 'process_vm_writev', 'pidfd_getfd', 'kcmp', 'process_madvise']) expect(unconditionally(old, name)).toBe(true);
  });

  it('opens the CAP_SYS_ADMIN calls with it, and only namespace-free clone without it', () => {
    const admin = defaultSeccompProfile(['CAP_SYS_ADMIN'], LINUX_6_1);
    for (const name of ['mount', 'umount2', 'unshare', 'setns', 'clone', 'clone3', 'name_to_handle_at', 'bpf', 'perf_event_open']) expect(unconditionally(admin, name)).toBe(true);
    expect(admin.syscalls?.some((s) => s.action === 'SCMP_ACT_ERRNO')).toBe(false);

    const plain = defaultSeccompProfile(DEFAULT_CAPS, LINUX_6_1);
    for (const name of ['mount', 'unshare', 'setns', 'bpf']) expect(anyRule(plain, name)).toBe(false);
    expect(plain.syscalls?.filter((s) => s.names.includes('clone'))).toEqual([
      { names: ['clone'], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: 0x7e020000, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }] },
    ]);
    expect(plain.syscalls?.filter((s) => s.names.includes('clone3'))).toEqual([{ names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: ENOSYS }]);
    const s390 = defaultSeccompProfile(DEFAULT_CAPS, { arch: 's390x', kernelRelease: '6.1.0' });
    expect(s390.syscalls?.find((s) => s.names.includes('clone'))?.args?.[0]?.index).toBe(1);
  });

  it('allows personality only for the five values containerd lists', () => {
    const p = defaultSeccompProfile(DEFAULT_CAPS, LINUX_6_1);
    expect(unconditionally(p, 'personality')).toBe(false);
    const values = (p.syscalls ?? []).filter((s) => s.names.includes('personality')).map((s) => s.args);
    expect(values).toEqual([0x0, 0x8, 0x20000, 0x20008, 0xffffffff].map((value) => [{ index: 0, value, op: 'SCMP_CMP_EQ' }]));
  });

  it('opens each capability-gated group with its capability only', () => {
    const gated: [string, string][] = [
      ['CAP_DAC_READ_SEARCH', 'open_by_handle_at'],
      ['CAP_SYS_BOOT', 'reboot'],
      ['CAP_SYS_CHROOT', 'chroot'],
      ['CAP_SYS_MODULE', 'finit_module'],
      ['CAP_SYS_PACCT', 'acct'],
      ['CAP_SYS_RAWIO', 'iopl'],
      ['CAP_SYS_TIME', 'settimeofday'],
      ['CAP_SYS_TTY_CONFIG', 'vhangup'],
      ['CAP_SYS_NICE', 'mbind'],
      ['CAP_SYSLOG', 'syslog'],
      ['CAP_BPF', 'bpf'],
      ['CAP_PERFMON', 'perf_event_open'],
    ];
    for (const [cap, name] of gated) {
      expect([cap, name, anyRule(defaultSeccompProfile([cap], LINUX_6_1), name)]).toEqual([cap, name, true]);
      expect([cap, name, anyRule(defaultSeccompProfile([], LINUX_6_1), name)]).toEqual([cap, name, false]);
    }
  });

  it('reads kernel versions as containerd does', () => {
    expect(parseKernelVersion('6.1.0-18-amd64')).toEqual({ kernel: 6, major: 1 });
    expect(parseKernelVersion('3.12-1-amd64')).toEqual({ kernel: 3, major: 12 });
    expect(parseKernelVersion('5')).toBeUndefined();
  });
});
