// Names in a layer are bytes, UTF-8 or not: Go's archive/tar keeps them so and containerd writes
// them as they are, so "caf\xe9" and "caf\xe8" stay two files. The archive code carries every
// name as a latin1 string (one character per byte, so "/" is still the byte 0x2F and no UTF-8
// sequence contains it) and hands the kernel those bytes through these wrappers.
import {
  createFileAt as createFileAtRaw,
  fchmodAt as fchmodAtRaw,
  fchownAt as fchownAtRaw,
  linkAt as linkAtRaw,
  mkdirAt as mkdirAtRaw,
  mknodAt as mknodAtRaw,
  openDirAt as openDirAtRaw,
  openDirBeneath as openDirBeneathRaw,
  readlinkBytesAt,
  removeAt as removeAtRaw,
  setxattrAt as setxattrAtRaw,
  statAt as statAtRaw,
  symlinkAt as symlinkAtRaw,
  utimensAt as utimensAtRaw,
  type RemovedKind,
  type StatAt,
  type Timespec,
} from '../sys/fsat';

/** The bytes a latin1-carried name stands for. */
export const bytesOf = (name: string): Buffer => Buffer.from(name, 'latin1');

/** A byte string read from a tar, as this module carries it. */
export const byteString = (bytes: Buffer, start = 0, end = bytes.length): string => bytes.toString('latin1', start, end);

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A text holding latin1-carried names, for people: UTF-8 names read as themselves again. A text
 * that does not decode so (other non-ASCII text, or a name that is not UTF-8) is left as it is.
 */
export function shown(text: string): string {
  let plain = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return text; // not ours
    if (c > 0x7f) plain = false;
  }
  if (plain) return text;
  try {
    return strictUtf8.decode(Buffer.from(text, 'latin1'));
  } catch {
    return text;
  }
}

export const openDirBeneath = (dirFd: number, path: string): number => openDirBeneathRaw(dirFd, bytesOf(path));
export const openDirAt = (dirFd: number, name: string): number => openDirAtRaw(dirFd, bytesOf(name));
export const createFileAt = (dirFd: number, name: string, mode: number): number => createFileAtRaw(dirFd, bytesOf(name), mode);
export const mkdirAt = (dirFd: number, name: string, mode: number): void => mkdirAtRaw(dirFd, bytesOf(name), mode);
export const symlinkAt = (target: string, dirFd: number, name: string): void => symlinkAtRaw(bytesOf(target), dirFd, bytesOf(name));
export const linkAt = (oldDirFd: number, oldName: string, newDirFd: number, newName: string): void =>
  linkAtRaw(oldDirFd, bytesOf(oldName), newDirFd, bytesOf(newName));
export const mknodAt = (dirFd: number, name: string, mode: number, major = 0, minor = 0): void => mknodAtRaw(dirFd, bytesOf(name), mode, major, minor);
export const readlinkAt = (dirFd: number, name: string): string | undefined => {
  const target = readlinkBytesAt(dirFd, bytesOf(name));
  return target === undefined ? undefined : byteString(target);
};
export const statAt = (dirFd: number, name: string): StatAt | undefined => statAtRaw(dirFd, bytesOf(name));
export const fchownAt = (dirFd: number, name: string, uid: number, gid: number): void => fchownAtRaw(dirFd, bytesOf(name), uid, gid);
export const fchmodAt = (dirFd: number, name: string, mode: number): void => fchmodAtRaw(dirFd, bytesOf(name), mode);
export const utimensAt = (dirFd: number, name: string, atime: Timespec, mtime: Timespec): void => utimensAtRaw(dirFd, bytesOf(name), atime, mtime);
export const setxattrAt = (dirFd: number, name: string, xattr: string, value: Buffer | string): void => setxattrAtRaw(dirFd, bytesOf(name), xattr, value);
export const removeAt = (dirFd: number, name: string): RemovedKind => removeAtRaw(dirFd, bytesOf(name));
