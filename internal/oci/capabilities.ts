// Linux capability names by bit number, and the decoding of a capability mask as printed in
// /proc/<pid>/status ("CapEff: 000001ffffffffff"). Privileged containers get the caller's own
// effective set (like containerd's cap.Current), never more: a cap outside our bounding set would
// make runc's capset fail.

/** Index = capability bit number (linux/capability.h). */
const CAPABILITY_BITS: readonly string[] = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_DAC_READ_SEARCH',
  'CAP_FOWNER',
  'CAP_FSETID',
  'CAP_KILL',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETPCAP',
  'CAP_LINUX_IMMUTABLE',
  'CAP_NET_BIND_SERVICE',
  'CAP_NET_BROADCAST',
  'CAP_NET_ADMIN',
  'CAP_NET_RAW',
  'CAP_IPC_LOCK',
  'CAP_IPC_OWNER',
  'CAP_SYS_MODULE',
  'CAP_SYS_RAWIO',
  'CAP_SYS_CHROOT',
  'CAP_SYS_PTRACE',
  'CAP_SYS_PACCT',
  'CAP_SYS_ADMIN',
  'CAP_SYS_BOOT',
  'CAP_SYS_NICE',
  'CAP_SYS_RESOURCE',
  'CAP_SYS_TIME',
  'CAP_SYS_TTY_CONFIG',
  'CAP_MKNOD',
  'CAP_LEASE',
  'CAP_AUDIT_WRITE',
  'CAP_AUDIT_CONTROL',
  'CAP_SETFCAP',
  'CAP_MAC_OVERRIDE',
  'CAP_MAC_ADMIN',
  'CAP_SYSLOG',
  'CAP_WAKE_ALARM',
  'CAP_BLOCK_SUSPEND',
  'CAP_AUDIT_READ',
  'CAP_PERFMON',
  'CAP_BPF',
  'CAP_CHECKPOINT_RESTORE',
];

/** Every capability name this table knows, in bit order. */
export function knownCapabilities(): string[] {
  return [...CAPABILITY_BITS];
}

/** Names of the bits set in a hex mask such as /proc/self/status's CapEff value. Unknown bits are skipped. */
export function capabilitiesFromMask(hexMask: string): string[] {
  const trimmed = hexMask.trim();
  if (!/^[0-9a-fA-F]+$/.test(trimmed)) throw new Error(`capability mask ${JSON.stringify(hexMask)} is not hexadecimal`);
  const mask = BigInt(`0x${trimmed}`);
  return CAPABILITY_BITS.filter((_, bit) => (mask >> BigInt(bit)) & 1n);
}

/** The CapEff line of a /proc/<pid>/status text, decoded. */
export function effectiveCapabilitiesFromStatus(statusText: string): string[] {
  const line = statusText.split('\n').find((l) => l.startsWith('CapEff:'));
  if (line === undefined) throw new Error('no CapEff line in process status');
  return capabilitiesFromMask(line.slice('CapEff:'.length));
}
