// berth's RuntimeDefault seccomp profile: deny by default (EPERM), allow what ordinary programs
// use, and open the privileged syscalls only when the matching capability is in the bounding set
// (the same shape as Docker's and containerd's default profiles). runc skips names its libseccomp
// does not know, so listing syscalls of every architecture is harmless.
import type { LinuxSeccomp, LinuxSyscall } from './spec';

const ENOSYS = 38;

// Namespace-creating clone flags: CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET.
const CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;

const FILES = [
  'access', 'chdir', 'chmod', 'chown', 'chown32', 'close', 'close_range', 'copy_file_range', 'creat', 'dup', 'dup2', 'dup3',
  'faccessat', 'faccessat2', 'fadvise64', 'fadvise64_64', 'fallocate', 'fchdir', 'fchmod', 'fchmodat', 'fchown', 'fchown32',
  'fchownat', 'fcntl', 'fcntl64', 'fdatasync', 'fgetxattr', 'flistxattr', 'flock', 'fremovexattr', 'fsetxattr', 'fstat',
  'fstat64', 'fstatat64', 'fstatfs', 'fstatfs64', 'fsync', 'ftruncate', 'ftruncate64', 'getcwd', 'getdents', 'getdents64',
  'getxattr', 'inotify_add_watch', 'inotify_init', 'inotify_init1', 'inotify_rm_watch', 'lchown', 'lchown32', 'lgetxattr',
  'link', 'linkat', 'listxattr', 'llistxattr', 'lremovexattr', 'lseek', 'lsetxattr', 'lstat', 'lstat64', 'mkdir', 'mkdirat',
  'mknod', 'mknodat', 'newfstatat', 'open', 'openat', 'openat2', 'pipe', 'pipe2', 'pread64', 'preadv', 'preadv2', 'pwrite64',
  'pwritev', 'pwritev2', 'read', 'readahead', 'readlink', 'readlinkat', 'readv', 'removexattr', 'rename', 'renameat',
  'renameat2', 'rmdir', 'sendfile', 'sendfile64', 'setxattr', 'splice', 'stat', 'stat64', 'statfs', 'statfs64', 'statx',
  'symlink', 'symlinkat', 'sync', 'sync_file_range', 'syncfs', 'tee', 'truncate', 'truncate64', 'umask', 'unlink',
  'unlinkat', 'utime', 'utimensat', 'utimensat_time64', 'utimes', 'vmsplice', 'write', 'writev', 'fanotify_mark',
  '_llseek', 'memfd_create', 'name_to_handle_at',
];

const PROCESSES = [
  'arch_prctl', 'capget', 'capset', 'execve', 'execveat', 'exit', 'exit_group', 'fork', 'vfork', 'get_robust_list',
  'get_thread_area', 'getegid', 'getegid32', 'geteuid', 'geteuid32', 'getgid', 'getgid32', 'getgroups', 'getgroups32',
  'getpgid', 'getpgrp', 'getpid', 'getppid', 'getpriority', 'getresgid', 'getresgid32', 'getresuid', 'getresuid32',
  'getrlimit', 'getrusage', 'getsid', 'gettid', 'getuid', 'getuid32', 'ioprio_get', 'ioprio_set', 'kill', 'pidfd_getfd',
  'pidfd_open', 'pidfd_send_signal', 'prctl', 'prlimit64', 'rseq', 'sched_get_priority_max', 'sched_get_priority_min',
  'sched_getaffinity', 'sched_getattr', 'sched_getparam', 'sched_getscheduler', 'sched_rr_get_interval',
  'sched_rr_get_interval_time64', 'sched_setaffinity', 'sched_setattr', 'sched_setparam', 'sched_setscheduler',
  'sched_yield', 'set_robust_list', 'set_thread_area', 'set_tid_address', 'setfsgid', 'setfsgid32', 'setfsuid',
  'setfsuid32', 'setgid', 'setgid32', 'setgroups', 'setgroups32', 'setpgid', 'setpriority', 'setregid', 'setregid32',
  'setresgid', 'setresgid32', 'setresuid', 'setresuid32', 'setreuid', 'setreuid32', 'setrlimit', 'setsid', 'setuid',
  'setuid32', 'tgkill', 'tkill', 'times', 'ugetrlimit', 'uname', 'wait4', 'waitid', 'waitpid', 'personality',
];

const SIGNALS_AND_TIME = [
  'alarm', 'clock_getres', 'clock_getres_time64', 'clock_gettime', 'clock_gettime64', 'clock_nanosleep',
  'clock_nanosleep_time64', 'getitimer', 'gettimeofday', 'nanosleep', 'pause', 'restart_syscall', 'rt_sigaction',
  'rt_sigpending', 'rt_sigprocmask', 'rt_sigqueueinfo', 'rt_sigreturn', 'rt_sigsuspend', 'rt_sigtimedwait',
  'rt_sigtimedwait_time64', 'rt_tgsigqueueinfo', 'setitimer', 'sigaction', 'sigaltstack', 'signal', 'signalfd', 'signalfd4',
  'sigpending', 'sigprocmask', 'sigreturn', 'sigsuspend', 'time', 'timer_create', 'timer_delete', 'timer_getoverrun',
  'timer_gettime', 'timer_gettime64', 'timer_settime', 'timer_settime64', 'timerfd_create', 'timerfd_gettime',
  'timerfd_gettime64', 'timerfd_settime', 'timerfd_settime64',
];

const MEMORY_AND_IPC = [
  'brk', 'futex', 'futex_time64', 'futex_waitv', 'get_mempolicy', 'madvise', 'membarrier', 'mincore', 'mlock', 'mlock2',
  'mlockall', 'mmap', 'mmap2', 'mprotect', 'mremap', 'msync', 'munlock', 'munlockall', 'munmap', 'set_mempolicy',
  'mq_getsetattr', 'mq_notify', 'mq_open', 'mq_timedreceive', 'mq_timedreceive_time64', 'mq_timedsend',
  'mq_timedsend_time64', 'mq_unlink', 'msgctl', 'msgget', 'msgrcv', 'msgsnd', 'semctl', 'semget', 'semop', 'semtimedop',
  'semtimedop_time64', 'shmat', 'shmctl', 'shmdt', 'shmget', 'ipc', 'process_mrelease',
];

const IO_AND_EVENTS = [
  'epoll_create', 'epoll_create1', 'epoll_ctl', 'epoll_ctl_old', 'epoll_pwait', 'epoll_pwait2', 'epoll_wait',
  'epoll_wait_old', 'eventfd', 'eventfd2', 'io_cancel', 'io_destroy', 'io_getevents', 'io_pgetevents',
  'io_pgetevents_time64', 'io_setup', 'io_submit', 'io_uring_enter', 'io_uring_register', 'io_uring_setup', 'ioctl',
  'poll', 'ppoll', 'ppoll_time64', 'pselect6', 'pselect6_time64', 'select', '_newselect', 'getrandom', 'sysinfo',
  'getcpu', 'landlock_add_rule', 'landlock_create_ruleset', 'landlock_restrict_self',
];

const NETWORK = [
  'accept', 'accept4', 'bind', 'connect', 'getpeername', 'getsockname', 'getsockopt', 'listen', 'recv', 'recvfrom',
  'recvmmsg', 'recvmmsg_time64', 'recvmsg', 'send', 'sendmmsg', 'sendmsg', 'sendto', 'setsockopt', 'shutdown', 'socket',
  'socketcall', 'socketpair',
];

/** Extra syscalls opened by a capability present in the bounding set. */
const BY_CAPABILITY: Readonly<Record<string, readonly string[]>> = {
  CAP_DAC_READ_SEARCH: ['open_by_handle_at'],
  CAP_SYS_ADMIN: [
    'bpf', 'clone', 'clone3', 'fanotify_init', 'fsconfig', 'fsmount', 'fsopen', 'fspick', 'lookup_dcookie', 'mount',
    'mount_setattr', 'move_mount', 'open_tree', 'perf_event_open', 'quotactl', 'quotactl_fd', 'setdomainname',
    'sethostname', 'setns', 'syslog', 'umount', 'umount2', 'unshare',
  ],
  CAP_SYS_BOOT: ['reboot'],
  CAP_SYS_CHROOT: ['chroot'],
  CAP_SYS_MODULE: ['delete_module', 'init_module', 'finit_module'],
  CAP_SYS_PACCT: ['acct'],
  CAP_SYS_PTRACE: ['kcmp', 'process_vm_readv', 'process_vm_writev', 'ptrace'],
  CAP_SYS_RAWIO: ['iopl', 'ioperm'],
  CAP_SYS_TIME: ['settimeofday', 'stime', 'clock_settime', 'clock_settime64', 'adjtimex', 'clock_adjtime', 'clock_adjtime64'],
  CAP_SYS_TTY_CONFIG: ['vhangup'],
  CAP_SYS_NICE: ['get_mempolicy', 'mbind', 'set_mempolicy'],
  CAP_SYSLOG: ['syslog'],
  CAP_BPF: ['bpf'],
  CAP_PERFMON: ['perf_event_open'],
};

function seccompArchitectures(arch: string): string[] {
  switch (arch) {
    case 'x64':
      return ['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86', 'SCMP_ARCH_X32'];
    case 'ia32':
      return ['SCMP_ARCH_X86'];
    case 'arm64':
      return ['SCMP_ARCH_ARM', 'SCMP_ARCH_AARCH64'];
    case 'arm':
      return ['SCMP_ARCH_ARM'];
    case 's390x':
      return ['SCMP_ARCH_S390', 'SCMP_ARCH_S390X'];
    case 'riscv64':
      return ['SCMP_ARCH_RISCV64'];
    default:
      return [];
  }
}

const allow = (names: readonly string[]): LinuxSyscall => ({ names: [...names], action: 'SCMP_ACT_ALLOW' });

/**
 * The RuntimeDefault profile for a process whose bounding set is `bounding`.
 * `arch` is Node's process.arch naming (x64, arm64, ...).
 */
export function defaultSeccompProfile(bounding: readonly string[], arch: string = process.arch): LinuxSeccomp {
  const syscalls: LinuxSyscall[] = [allow([...FILES, ...PROCESSES, ...SIGNALS_AND_TIME, ...MEMORY_AND_IPC, ...IO_AND_EVENTS, ...NETWORK])];
  const caps = new Set(bounding);
  for (const [cap, names] of Object.entries(BY_CAPABILITY)) {
    if (caps.has(cap)) syscalls.push(allow(names));
  }
  if (!caps.has('CAP_SYS_ADMIN')) {
    // Plain fork-style clone stays allowed; only namespace creation is refused. clone3 cannot be
    // filtered by flags (they live in a struct), so it answers ENOSYS and libc falls back to clone.
    const flagsArgIndex = arch === 's390x' ? 1 : 0;
    syscalls.push({
      names: ['clone'],
      action: 'SCMP_ACT_ALLOW',
      args: [{ index: flagsArgIndex, value: CLONE_NAMESPACE_FLAGS, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }],
    });
    syscalls.push({ names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: ENOSYS });
  }
  return { defaultAction: 'SCMP_ACT_ERRNO', architectures: seccompArchitectures(arch), syscalls };
}
