// containerd 1.6's RuntimeDefault seccomp table (contrib/seccomp/seccomp_default.go) as data: one
// rule per entry, in containerd's order, with the conditions its DefaultProfile code applies
// written the way moby's profile JSON writes them. test/fixtures/containerd-1.6.20-seccomp-default.json
// holds the same facts as read from containerd; a unit test compares the two rule by rule, so an
// edit here that drifts from containerd fails.
import type { LinuxSeccompArg, SeccompAction } from './spec';

/** A rule of the table and when it applies. */
export interface SeccompRule {
  names: readonly string[];
  action: SeccompAction;
  /** Symbolic: resolved to the host's errno number when the profile is built. */
  errnoRet?: 'ENOSYS';
  args?: readonly LinuxSeccompArg[];
  /** Applies only when every listed condition holds: a listed capability is in the bounding set, the
   * host's Go architecture is listed, the kernel is at least this "major.minor". */
  includes?: { caps?: readonly string[]; arches?: readonly string[]; minKernel?: string };
  /** Applies only when no listed capability is in the bounding set and the architecture is not listed. */
  excludes?: { caps?: readonly string[]; arches?: readonly string[] };
}

const ALLOW: SeccompAction = 'SCMP_ACT_ALLOW';
const ERRNO: SeccompAction = 'SCMP_ACT_ERRNO';

/** What the profile does with a syscall no rule allows. */
export const SECCOMP_DEFAULT_ACTION: SeccompAction = ERRNO;

// CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET: clone may not create namespaces.
const CLONE_NAMESPACE_FLAGS = 0x7e020000;

/** libseccomp architectures by Go GOARCH (containerd's arches()); any other architecture gets none. */
export const SECCOMP_ARCHITECTURES: Readonly<Record<string, readonly string[]>> = {
  amd64: ['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86', 'SCMP_ARCH_X32'],
  arm64: ['SCMP_ARCH_ARM', 'SCMP_ARCH_AARCH64'],
  mips64: ['SCMP_ARCH_MIPS', 'SCMP_ARCH_MIPS64', 'SCMP_ARCH_MIPS64N32'],
  mips64n32: ['SCMP_ARCH_MIPS', 'SCMP_ARCH_MIPS64', 'SCMP_ARCH_MIPS64N32'],
  mipsel64: ['SCMP_ARCH_MIPSEL', 'SCMP_ARCH_MIPSEL64', 'SCMP_ARCH_MIPSEL64N32'],
  mipsel64n32: ['SCMP_ARCH_MIPSEL', 'SCMP_ARCH_MIPSEL64', 'SCMP_ARCH_MIPSEL64N32'],
  s390x: ['SCMP_ARCH_S390', 'SCMP_ARCH_S390X'],
  riscv64: ['SCMP_ARCH_RISCV64'],
};

/** The rules, in containerd's order. */
export const SECCOMP_DEFAULT_RULES: readonly SeccompRule[] = [
  {
    names: [
      'accept', 'accept4', 'access', 'adjtimex', 'alarm', 'bind', 'brk', 'capget', 'capset', 'chdir', 'chmod', 'chown',
      'chown32', 'clock_adjtime', 'clock_adjtime64', 'clock_getres', 'clock_getres_time64', 'clock_gettime',
      'clock_gettime64', 'clock_nanosleep', 'clock_nanosleep_time64', 'close', 'close_range', 'connect',
      'copy_file_range', 'creat', 'dup', 'dup2', 'dup3', 'epoll_create', 'epoll_create1', 'epoll_ctl', 'epoll_ctl_old',
      'epoll_pwait', 'epoll_pwait2', 'epoll_wait', 'epoll_wait_old', 'eventfd', 'eventfd2', 'execve', 'execveat',
      'exit', 'exit_group', 'faccessat', 'faccessat2', 'fadvise64', 'fadvise64_64', 'fallocate', 'fanotify_mark',
      'fchdir', 'fchmod', 'fchmodat', 'fchown', 'fchown32', 'fchownat', 'fcntl', 'fcntl64', 'fdatasync', 'fgetxattr',
      'flistxattr', 'flock', 'fork', 'fremovexattr', 'fsetxattr', 'fstat', 'fstat64', 'fstatat64', 'fstatfs',
      'fstatfs64', 'fsync', 'ftruncate', 'ftruncate64', 'futex', 'futex_time64', 'futex_waitv', 'futimesat', 'getcpu',
      'getcwd', 'getdents', 'getdents64', 'getegid', 'getegid32', 'geteuid', 'geteuid32', 'getgid', 'getgid32',
      'getgroups', 'getgroups32', 'getitimer', 'getpeername', 'getpgid', 'getpgrp', 'getpid', 'getppid', 'getpriority',
      'getrandom', 'getresgid', 'getresgid32', 'getresuid', 'getresuid32', 'getrlimit', 'get_robust_list', 'getrusage',
      'getsid', 'getsockname', 'getsockopt', 'get_thread_area', 'gettid', 'gettimeofday', 'getuid', 'getuid32',
      'getxattr', 'inotify_add_watch', 'inotify_init', 'inotify_init1', 'inotify_rm_watch', 'io_cancel', 'ioctl',
      'io_destroy', 'io_getevents', 'io_pgetevents', 'io_pgetevents_time64', 'ioprio_get', 'ioprio_set', 'io_setup',
      'io_submit', 'io_uring_enter', 'io_uring_register', 'io_uring_setup', 'ipc', 'kill', 'landlock_add_rule',
      'landlock_create_ruleset', 'landlock_restrict_self', 'lchown', 'lchown32', 'lgetxattr', 'link', 'linkat',
      'listen', 'listxattr', 'llistxattr', '_llseek', 'lremovexattr', 'lseek', 'lsetxattr', 'lstat', 'lstat64',
      'madvise', 'membarrier', 'memfd_create', 'memfd_secret', 'mincore', 'mkdir', 'mkdirat', 'mknod', 'mknodat',
      'mlock', 'mlock2', 'mlockall', 'mmap', 'mmap2', 'mprotect', 'mq_getsetattr', 'mq_notify', 'mq_open',
      'mq_timedreceive', 'mq_timedreceive_time64', 'mq_timedsend', 'mq_timedsend_time64', 'mq_unlink', 'mremap',
      'msgctl', 'msgget', 'msgrcv', 'msgsnd', 'msync', 'munlock', 'munlockall', 'munmap', 'nanosleep', 'newfstatat',
      '_newselect', 'open', 'openat', 'openat2', 'pause', 'pidfd_open', 'pidfd_send_signal', 'pipe', 'pipe2',
      'pkey_alloc', 'pkey_free', 'pkey_mprotect', 'poll', 'ppoll', 'ppoll_time64', 'prctl', 'pread64', 'preadv',
      'preadv2', 'prlimit64', 'process_mrelease', 'pselect6', 'pselect6_time64', 'pwrite64', 'pwritev', 'pwritev2',
      'read', 'readahead', 'readlink', 'readlinkat', 'readv', 'recv', 'recvfrom', 'recvmmsg', 'recvmmsg_time64',
      'recvmsg', 'remap_file_pages', 'removexattr', 'rename', 'renameat', 'renameat2', 'restart_syscall', 'rmdir',
      'rseq', 'rt_sigaction', 'rt_sigpending', 'rt_sigprocmask', 'rt_sigqueueinfo', 'rt_sigreturn', 'rt_sigsuspend',
      'rt_sigtimedwait', 'rt_sigtimedwait_time64', 'rt_tgsigqueueinfo', 'sched_getaffinity', 'sched_getattr',
      'sched_getparam', 'sched_get_priority_max', 'sched_get_priority_min', 'sched_getscheduler',
      'sched_rr_get_interval', 'sched_rr_get_interval_time64', 'sched_setaffinity', 'sched_setattr', 'sched_setparam',
      'sched_setscheduler', 'sched_yield', 'seccomp', 'select', 'semctl', 'semget', 'semop', 'semtimedop',
      'semtimedop_time64', 'send', 'sendfile', 'sendfile64', 'sendmmsg', 'sendmsg', 'sendto', 'setfsgid', 'setfsgid32',
      'setfsuid', 'setfsuid32', 'setgid', 'setgid32', 'setgroups', 'setgroups32', 'setitimer', 'setpgid', 'setpriority',
      'setregid', 'setregid32', 'setresgid', 'setresgid32', 'setresuid', 'setresuid32', 'setreuid', 'setreuid32',
      'setrlimit', 'set_robust_list', 'setsid', 'setsockopt', 'set_thread_area', 'set_tid_address', 'setuid',
      'setuid32', 'setxattr', 'shmat', 'shmctl', 'shmdt', 'shmget', 'shutdown', 'sigaltstack', 'signalfd', 'signalfd4',
      'sigprocmask', 'sigreturn', 'socket', 'socketcall', 'socketpair', 'splice', 'stat', 'stat64', 'statfs',
      'statfs64', 'statx', 'symlink', 'symlinkat', 'sync', 'sync_file_range', 'syncfs', 'sysinfo', 'tee', 'tgkill',
      'time', 'timer_create', 'timer_delete', 'timer_getoverrun', 'timer_gettime', 'timer_gettime64', 'timer_settime',
      'timer_settime64', 'timerfd_create', 'timerfd_gettime', 'timerfd_gettime64', 'timerfd_settime',
      'timerfd_settime64', 'times', 'tkill', 'truncate', 'truncate64', 'ugetrlimit', 'umask', 'uname', 'unlink',
      'unlinkat', 'utime', 'utimensat', 'utimensat_time64', 'utimes', 'vfork', 'vmsplice', 'wait4', 'waitid', 'waitpid',
      'write', 'writev',
    ],
    action: ALLOW,
  },
  // personality(PER_LINUX) only.
  {
    names: ['personality'],
    action: ALLOW,
    args: [{ index: 0, value: 0x0, op: 'SCMP_CMP_EQ' }],
  },
  // personality(PER_LINUX32) only.
  {
    names: ['personality'],
    action: ALLOW,
    args: [{ index: 0, value: 0x8, op: 'SCMP_CMP_EQ' }],
  },
  // personality(UNAME26) only.
  {
    names: ['personality'],
    action: ALLOW,
    args: [{ index: 0, value: 0x20000, op: 'SCMP_CMP_EQ' }],
  },
  // personality(UNAME26 | PER_LINUX32) only.
  {
    names: ['personality'],
    action: ALLOW,
    args: [{ index: 0, value: 0x20008, op: 'SCMP_CMP_EQ' }],
  },
  // personality(0xffffffff): reading the current persona.
  {
    names: ['personality'],
    action: ALLOW,
    args: [{ index: 0, value: 0xffffffff, op: 'SCMP_CMP_EQ' }],
  },
  // Before 4.8, seccomp could be bypassed through ptrace.
  {
    names: ['ptrace'],
    action: ALLOW,
    includes: { minKernel: '4.8' },
  },
  {
    names: ['sync_file_range2', 'swapcontext'],
    action: ALLOW,
    includes: { arches: ['ppc64le'] },
  },
  {
    names: ['arm_fadvise64_64', 'arm_sync_file_range', 'sync_file_range2', 'breakpoint', 'cacheflush', 'set_tls'],
    action: ALLOW,
    includes: { arches: ['arm', 'arm64'] },
  },
  {
    names: ['arch_prctl', 'modify_ldt'],
    action: ALLOW,
    includes: { arches: ['amd64'] },
  },
  {
    names: ['modify_ldt'],
    action: ALLOW,
    includes: { arches: ['386'] },
  },
  {
    names: ['s390_pci_mmio_read', 's390_pci_mmio_write', 's390_runtime_instr'],
    action: ALLOW,
    includes: { arches: ['s390', 's390x'] },
  },
  {
    names: ['riscv_flush_icache'],
    action: ALLOW,
    includes: { arches: ['riscv64'] },
  },
  {
    names: ['open_by_handle_at'],
    action: ALLOW,
    includes: { caps: ['CAP_DAC_READ_SEARCH'] },
  },
  {
    names: [
      'bpf', 'clone', 'clone3', 'fanotify_init', 'fsconfig', 'fsmount', 'fsopen', 'fspick', 'lookup_dcookie', 'mount',
      'mount_setattr', 'move_mount', 'name_to_handle_at', 'open_tree', 'perf_event_open', 'quotactl', 'quotactl_fd',
      'setdomainname', 'sethostname', 'setns', 'syslog', 'umount', 'umount2', 'unshare',
    ],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_ADMIN'] },
  },
  {
    names: ['reboot'],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_BOOT'] },
  },
  {
    names: ['chroot'],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_CHROOT'] },
  },
  {
    names: ['delete_module', 'init_module', 'finit_module'],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_MODULE'] },
  },
  {
    names: ['acct'],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_PACCT'] },
  },
  {
    names: ['kcmp', 'pidfd_getfd', 'process_madvise', 'process_vm_readv', 'process_vm_writev', 'ptrace'],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_PTRACE'] },
  },
  {
    names: ['iopl', 'ioperm'],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_RAWIO'] },
  },
  {
    names: ['settimeofday', 'stime', 'clock_settime', 'clock_settime64'],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_TIME'] },
  },
  {
    names: ['vhangup'],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_TTY_CONFIG'] },
  },
  {
    names: ['get_mempolicy', 'mbind', 'set_mempolicy'],
    action: ALLOW,
    includes: { caps: ['CAP_SYS_NICE'] },
  },
  {
    names: ['syslog'],
    action: ALLOW,
    includes: { caps: ['CAP_SYSLOG'] },
  },
  {
    names: ['bpf'],
    action: ALLOW,
    includes: { caps: ['CAP_BPF'] },
  },
  {
    names: ['perf_event_open'],
    action: ALLOW,
    includes: { caps: ['CAP_PERFMON'] },
  },
  // On s390 the flags are clone's second argument.
  {
    names: ['clone'],
    action: ALLOW,
    args: [{ index: 1, value: CLONE_NAMESPACE_FLAGS, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }],
    includes: { arches: ['s390', 's390x'] },
    excludes: { caps: ['CAP_SYS_ADMIN'] },
  },
  {
    names: ['clone'],
    action: ALLOW,
    args: [{ index: 0, value: CLONE_NAMESPACE_FLAGS, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }],
    excludes: { caps: ['CAP_SYS_ADMIN'], arches: ['s390', 's390x'] },
  },
  // clone3's flags are in a struct seccomp cannot read: ENOSYS makes libc fall back to clone.
  {
    names: ['clone3'],
    action: ERRNO,
    errnoRet: 'ENOSYS',
    excludes: { caps: ['CAP_SYS_ADMIN'] },
  },
];
