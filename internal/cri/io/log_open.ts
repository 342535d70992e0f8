// Opening a container's CRI log for appending. The pod's log directory is writable by whoever can
// mount it (a hostPath pod, a log shipper), and berthd writes there as root with a container's
// output, so nothing below that directory's parent is followed: a symlink planted for the pod's
// directory, for a container's directory in it, or for the file would have berthd create and append
// to files anywhere (containerd's MkdirAll + OpenFile follow them all). The kubelet writes no
// symlinks there; its own links in /var/log/containers point at these files.
import { closeSync, constants, fstatSync, mkdirSync, openSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { failedPrecondition, invalidArgument } from '../../errdefs/errors';
import { mkdirAt, openDirAt } from '../../sys/fsat';

const DIR_MODE = 0o755;
const FILE_MODE = 0o640;

const codeOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;

/** The directory `name` under dirFd; never a symlink. */
function openDir(dirFd: number, name: string, path: string): number {
  try {
    return openDirAt(dirFd, name);
  } catch (err) {
    if (codeOf(err) === 'ELOOP' || codeOf(err) === 'ENOTDIR') {
      throw failedPrecondition(`container log ${path}: ${JSON.stringify(name)} is not a directory (a symlink or another file)`, err);
    }
    throw err;
  }
}

/** The directory `name` under dirFd, made when missing; never a symlink. */
function openOrMakeDir(dirFd: number, name: string, path: string): number {
  try {
    return openDir(dirFd, name, path);
  } catch (err) {
    if (codeOf(err) !== 'ENOENT') throw err;
  }
  try {
    mkdirAt(dirFd, name, DIR_MODE);
  } catch (err) {
    if (codeOf(err) !== 'EEXIST') throw err; // made meanwhile: opened (and checked) below
  }
  return openDir(dirFd, name, path);
}

/**
 * Opens (creating) the file `name` in dirFd for appending, only if it is a regular file: a FIFO
 * would block the open, or every write, on berthd's one thread (O_NONBLOCK: such an open fails or
 * returns at once, and is refused); a symlink is not followed (O_NOFOLLOW). The name is opened
 * through /proc/self/fd, which resolves to the directory already open.
 */
function openAppendAt(dirFd: number, name: string, path: string): number {
  const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = constants;
  let fd: number;
  try {
    fd = openSync(`/proc/self/fd/${dirFd}/${name}`, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, FILE_MODE);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ELOOP' || code === 'ENXIO') throw failedPrecondition(`container log ${path} is not a regular file (${code === 'ELOOP' ? 'a symlink' : 'a FIFO'})`, err);
    throw err;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw failedPrecondition(`container log ${path} is not a regular file`);
  }
  return fd;
}

/**
 * Opens the log at `path` for appending, reached from `trusted` (made if missing, and the only part
 * followed if a symlink) one directory at a time without following any symlink, creating missing
 * directories. `path` must be below `trusted`.
 */
export function openLogFile(path: string, trusted: string): number {
  const rel = relative(trusted, path);
  if (rel === '' || rel === '..' || rel.startsWith('../') || isAbsolute(rel)) throw invalidArgument(`container log ${path} is not below ${trusted}`);
  const names = rel.split('/');
  const fileName = names.pop()!;
  mkdirSync(trusted, { recursive: true });
  let dirFd = openSync(trusted, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const name of names) {
      const next = openOrMakeDir(dirFd, name, path);
      closeSync(dirFd);
      dirFd = next;
    }
    return openAppendAt(dirFd, fileName, path);
  } finally {
    closeSync(dirFd);
  }
}
