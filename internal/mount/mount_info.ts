// /proc/<pid>/mountinfo, one line per mount (proc(5)): the fields berth reads.

export interface MountInfoLine {
  /** "major:minor" of the filesystem's device. */
  device: string;
  /** The path within that filesystem that is mounted here ("/..." ; "//deleted" once removed). */
  root: string;
  mountPoint: string;
  /** Optional fields: "shared:N", "master:N", ... */
  optional: string[];
  /** The filesystem type and its own options (overlay's lowerdir=...,upperdir=...), after the "-". */
  fstype: string;
  superOptions: string;
}

/** Octal escapes (\040 for a space, \012, \134) as the kernel writes them. */
function unescape(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

export function parseMountInfo(text: string): MountInfoLine[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const fields = l.split(' ');
      const sep = fields.indexOf('-');
      return {
        device: fields[2] ?? '',
        root: unescape(fields[3] ?? ''),
        mountPoint: unescape(fields[4] ?? ''),
        optional: fields.slice(6, sep < 0 ? undefined : sep),
        fstype: sep < 0 ? '' : (fields[sep + 1] ?? ''),
        superOptions: sep < 0 ? '' : unescape(fields[sep + 3] ?? ''),
      };
    });
}

/** The innermost mount holding absolute path `p` (the last of equal length wins, as it is on top). */
export function mountHolding(p: string, mounts: readonly MountInfoLine[]): MountInfoLine | undefined {
  let best: MountInfoLine | undefined;
  for (const m of mounts) {
    const under = m.mountPoint === '/' || p === m.mountPoint || p.startsWith(m.mountPoint + '/');
    if (under && (best === undefined || m.mountPoint.length >= best.mountPoint.length)) best = m;
  }
  return best;
}
