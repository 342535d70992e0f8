// Who holds an flock(2) on a file, as `lslocks` reads it: /proc/locks, whose lines name the holder's
// PID and the locked file's device (hex major:minor) and inode.
import { readFileSync, statSync } from 'node:fs';

const hex2 = (n: bigint) => n.toString(16).padStart(2, '0');

/** PIDs holding an FLOCK on `path` (the file it names now), in /proc/locks order. */
export function flockHolders(path: string): number[] {
  const st = statSync(path, { bigint: true });
  // glibc's major()/minor() of st_dev, as the kernel prints them in /proc/locks.
  const major = ((st.dev >> 8n) & 0xfffn) | ((st.dev >> 32n) & ~0xfffn);
  const minor = (st.dev & 0xffn) | ((st.dev >> 12n) & ~0xffn);
  const file = `${hex2(major)}:${hex2(minor)}:${st.ino}`;
  const holders: number[] = [];
  for (const line of readFileSync('/proc/locks', 'latin1').split('\n')) {
    // "1: FLOCK  ADVISORY  WRITE 12345 fe:00:2195538 0 EOF"; a blocked waiter's line has "->" after the id.
    const fields = line.trim().split(/\s+/);
    if (fields[1] === 'FLOCK' && fields[5] === file) holders.push(Number(fields[4]));
  }
  return holders;
}
