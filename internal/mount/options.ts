// Turns fstab-style option strings into mount(2) flags, propagation changes and the data string.
import * as sys from '../sys/fs';

export interface ParsedOptions {
  /** Flags for the main mount(2) call. */
  flags: number;
  /** Propagation flags (MS_PRIVATE, MS_SHARED|MS_REC, ...) applied by separate calls afterwards. */
  propagation: number[];
  /** Comma-joined options the kernel filesystem interprets (lowerdir=..., size=...). */
  data: string;
}

// [set, flag]: "ro" sets MS_RDONLY, "rw" clears it.
const FLAGS = new Map<string, [boolean, number]>(Object.entries({
  async: [false, sys.MS_SYNCHRONOUS],
  atime: [false, sys.MS_NOATIME],
  bind: [true, sys.MS_BIND],
  defaults: [false, 0],
  dev: [false, sys.MS_NODEV],
  diratime: [false, sys.MS_NODIRATIME],
  dirsync: [true, sys.MS_DIRSYNC],
  exec: [false, sys.MS_NOEXEC],
  mand: [true, sys.MS_MANDLOCK],
  noatime: [true, sys.MS_NOATIME],
  nodev: [true, sys.MS_NODEV],
  nodiratime: [true, sys.MS_NODIRATIME],
  noexec: [true, sys.MS_NOEXEC],
  nomand: [false, sys.MS_MANDLOCK],
  norelatime: [false, sys.MS_RELATIME],
  nostrictatime: [false, sys.MS_STRICTATIME],
  nosuid: [true, sys.MS_NOSUID],
  rbind: [true, sys.MS_BIND | sys.MS_REC],
  relatime: [true, sys.MS_RELATIME],
  remount: [true, sys.MS_REMOUNT],
  ro: [true, sys.MS_RDONLY],
  rw: [false, sys.MS_RDONLY],
  strictatime: [true, sys.MS_STRICTATIME],
  suid: [false, sys.MS_NOSUID],
  sync: [true, sys.MS_SYNCHRONOUS],
} satisfies Record<string, [boolean, number]>));

const PROPAGATION = new Map<string, number>(Object.entries({
  private: sys.MS_PRIVATE,
  rprivate: sys.MS_PRIVATE | sys.MS_REC,
  shared: sys.MS_SHARED,
  rshared: sys.MS_SHARED | sys.MS_REC,
  slave: sys.MS_SLAVE,
  rslave: sys.MS_SLAVE | sys.MS_REC,
  unbindable: sys.MS_UNBINDABLE,
  runbindable: sys.MS_UNBINDABLE | sys.MS_REC,
}));

export function parseMountOptions(options: readonly string[]): ParsedOptions {
  let flags = 0;
  const propagation: number[] = [];
  const data: string[] = [];
  for (const option of options) {
    const flag = FLAGS.get(option);
    if (flag !== undefined) {
      const [set, bits] = flag;
      flags = set ? flags | bits : flags & ~bits;
      continue;
    }
    const prop = PROPAGATION.get(option);
    if (prop !== undefined) {
      propagation.push(prop);
      continue;
    }
    data.push(option);
  }
  return { flags, propagation, data: data.join(',') };
}
