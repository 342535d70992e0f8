// What an entry just created in a directory already has, so that a chown or chmod that would set
// the same values again is skipped: on filesystems slow at metadata each is a round trip, and most
// layers are root-owned 0644/0755 files created by root under umask 022. The owner a directory
// gives new entries (the creator's, or the directory's group when it is setgid or the filesystem
// is mounted grpid) is learnt from the first file created in it (one fstat); the permission bits
// are the requested ones less the umask, unless the directory has a default ACL, which decides
// instead. What was learnt is dropped whenever a directory's owner, mode or ACL may have changed.
import { readFileSync } from 'node:fs';
import { errnoCode } from '../sys/fs';
import { getXattr } from '../sys/fsat';
import { statAt } from './byte_names';
import type { OpenDir } from './dir_cache';

/** What a new entry in a directory gets, as learnt from the first file created there. */
export interface NewEntryDefaults {
  uid: number;
  gid: number;
  /** The umask new files' modes lose; undefined when something else (a default ACL) decides. */
  umask: number | undefined;
  /** The CreatedAttrs generation this was learnt in. */
  generation: number;
}

/** An entry's owner and permission bits (undefined: not known) as they are right after creation. */
export interface Existing {
  uid: number;
  gid: number;
  mode?: number;
}

const DEFAULT_ACL_XATTR = 'system.posix_acl_default';
const NO_XATTRS = new Set(['ENOTSUP', 'EOPNOTSUPP']);

/**
 * The process umask, from /proc (reading it with umask(2) would change it for a moment, for
 * every thread); undefined when it cannot be read, and then no chmod is ever skipped. berthd
 * changes its umask only around a bind(2) and restores it before returning to the event loop, so
 * the value holds between an apply's yields; each directory's first file checks it anyway.
 */
export function processUmask(): number | undefined {
  try {
    const match = /^Umask:\s*([0-7]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? parseInt(match[1] as string, 8) : undefined;
  } catch {
    return undefined;
  }
}

export class CreatedAttrs {
  private generation = 0;

  constructor(private readonly umask: number | undefined = processUmask()) {}

  /** A directory's owner, mode or extended attributes were set: forget what was learnt. */
  invalidate(): void {
    this.generation++;
  }

  /**
   * The file just created as `fd` in `dir` with permission bits `requested`: its owner and mode,
   * learnt with an fstat when `dir` has no current defaults (which it then gets).
   */
  ofNewFile(dir: OpenDir, fd: number, requested: number): Existing {
    const known = this.current(dir);
    if (known !== undefined) return { uid: known.uid, gid: known.gid, mode: known.umask === undefined ? undefined : requested & ~known.umask };
    const st = statAt(fd, '');
    if (st === undefined) return { uid: -1, gid: -1 }; // cannot happen for an open fd: matches no owner
    const mode = st.mode & 0o7777;
    // Modes are predicted only when the umask alone explains this one and no default ACL decides.
    const predictable = this.umask !== undefined && mode === (requested & ~this.umask) && !hasDefaultAcl(dir.fd);
    dir.defaults = { uid: st.uid, gid: st.gid, umask: predictable ? this.umask : undefined, generation: this.generation };
    return { uid: st.uid, gid: st.gid, mode };
  }

  /** The owner of an entry other than a file just created in `dir`, when already learnt there. */
  ofNewEntry(dir: OpenDir): Existing | undefined {
    const known = this.current(dir);
    return known === undefined ? undefined : { uid: known.uid, gid: known.gid };
  }

  private current(dir: OpenDir): NewEntryDefaults | undefined {
    const known = dir.defaults;
    return known !== undefined && known.generation === this.generation ? known : undefined;
  }
}

/** Whether a default ACL may decide new entries' modes in the directory (yes, when it cannot tell). */
function hasDefaultAcl(dirFd: number): boolean {
  try {
    return getXattr(dirFd, DEFAULT_ACL_XATTR) !== undefined;
  } catch (err) {
    return !NO_XATTRS.has(errnoCode(err) ?? ''); // a filesystem without xattrs has no ACLs
  }
}
