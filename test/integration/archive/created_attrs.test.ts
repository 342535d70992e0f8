// applyLayer skips a new entry's chown or chmod when it already has that owner and mode: the
// result must be the same as if both were always made. Here are the cases where a new entry does
// NOT get the creator's owner and the requested mode less the umask: a setgid directory (its
// group), a default ACL (its permissions, not the umask), a umask other than 022, and a directory
// that becomes setgid midway through the layer, under its name or another.
import { lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLayer } from '../../../internal/archive';
import { lsetxattr } from '../../../internal/sys/fs';
import { paxRecord, rawTar } from './raw_tar';
import { buildTar, streamOf, type TarEntry } from './tarball';

let scratch: string;
let target: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-archive-created-'));
  target = join(scratch, 'root');
  mkdirSync(target);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const GROUP = 50;

async function apply(entries: TarEntry[]): Promise<void> {
  await applyLayer(target, streamOf(await buildTar(entries)));
}

const ownerMode = (path: string): [number, number, number] => {
  const st = lstatSync(join(target, path));
  return [st.uid, st.gid, st.mode & 0o7777];
};

/** A POSIX ACL in the kernel's xattr form: [tag, perm] entries for the owner, group and other. */
function aclXattr(user: number, group: number, other: number): Buffer {
  const entries: Array<[number, number]> = [
    [0x01, user], // ACL_USER_OBJ
    [0x04, group], // ACL_GROUP_OBJ
    [0x20, other], // ACL_OTHER
  ];
  const buf = Buffer.alloc(4 + entries.length * 8);
  buf.writeUInt32LE(2, 0); // POSIX_ACL_XATTR_VERSION
  entries.forEach(([tag, perm], i) => {
    buf.writeUInt16LE(tag, 4 + i * 8);
    buf.writeUInt16LE(perm, 6 + i * 8);
    buf.writeUInt32LE(0xffffffff, 8 + i * 8); // ACL_UNDEFINED_ID
  });
  return buf;
}

describe('applyLayer owners and modes of new entries', () => {
  it('gives files in a setgid directory the group the layer says, not the directory\'s', async () => {
    await apply([
      { name: 's/', type: 'directory', mode: 0o2775, gid: GROUP },
      { name: 's/a', data: 'a', gid: 0 },
      { name: 's/b', data: 'b', gid: GROUP },
      { name: 's/c', data: 'c', gid: 0, uid: 1000, mode: 0o600 },
      { name: 's/link', type: 'symlink', linkname: 'a', gid: 0 },
      { name: 's/link-g', type: 'symlink', linkname: 'b', gid: GROUP },
    ]);
    expect(ownerMode('s')).toEqual([0, GROUP, 0o2775]);
    expect(ownerMode('s/a')).toEqual([0, 0, 0o644]);
    expect(ownerMode('s/b')).toEqual([0, GROUP, 0o644]);
    expect(ownerMode('s/c')).toEqual([1000, 0, 0o600]);
    expect(ownerMode('s/link').slice(0, 2)).toEqual([0, 0]);
    expect(ownerMode('s/link-g').slice(0, 2)).toEqual([0, GROUP]);
  });

  it('gives the layer\'s modes under a default ACL that would decide them otherwise', async () => {
    // New files here get at most rw-r--r--: the same as umask 022 for a 0644 file, not for 0755.
    lsetxattr(target, 'system.posix_acl_default', aclXattr(6, 4, 4));
    await apply([
      { name: 'a', data: 'a', mode: 0o644 },
      { name: 'b', data: 'b', mode: 0o755 },
      { name: 'c', data: 'c', mode: 0o777 },
    ]);
    expect(ownerMode('a')).toEqual([0, 0, 0o644]);
    expect(ownerMode('b')).toEqual([0, 0, 0o755]);
    expect(ownerMode('c')).toEqual([0, 0, 0o777]);
  });

  it('gives the layer\'s modes under a default ACL the layer itself sets on a directory', async () => {
    const tarball = rawTar([
      { name: 'a', typeflag: '0', data: Buffer.from('a'), mode: 0o644 }, // the root's new files learnt first
      { name: 'PaxHeaders/acl', typeflag: 'x', data: paxRecord('SCHILY.xattr.system.posix_acl_default', aclXattr(6, 4, 4)) },
      { name: 'acl/', typeflag: '5', mode: 0o755 },
      { name: 'acl/a', typeflag: '0', data: Buffer.from('a'), mode: 0o644 },
      { name: 'acl/b', typeflag: '0', data: Buffer.from('b'), mode: 0o755 },
    ]);
    await applyLayer(target, streamOf(tarball));
    expect(ownerMode('acl/a')).toEqual([0, 0, 0o644]);
    expect(ownerMode('acl/b')).toEqual([0, 0, 0o755]);
  });

  it('gives the layer\'s modes whatever the process umask', async () => {
    const previous = process.umask(0o027);
    try {
      await apply([
        { name: 'a', data: 'a', mode: 0o644 },
        { name: 'b', data: 'b', mode: 0o750 },
        { name: 'c', data: 'c', mode: 0o666 },
        { name: 'd', data: 'd', mode: 0o640 },
        { name: 'e', data: 'e', mode: 0o644 },
      ]);
    } finally {
      process.umask(previous);
    }
    expect(ownerMode('a')[2]).toBe(0o644);
    expect(ownerMode('b')[2]).toBe(0o750);
    expect(ownerMode('c')[2]).toBe(0o666);
    expect(ownerMode('d')[2]).toBe(0o640);
    expect(ownerMode('e')[2]).toBe(0o644);
  });

  it('keeps setuid and setgid bits of root-owned files that need no chown', async () => {
    await apply([
      { name: 'bin/', type: 'directory' },
      { name: 'bin/plain', data: 'p' },
      { name: 'bin/su', data: 'su', mode: 0o4755 },
      { name: 'bin/sg', data: 'sg', mode: 0o2755 },
      { name: 'bin/t', data: 't', mode: 0o1755 },
    ]);
    expect(ownerMode('bin/su')).toEqual([0, 0, 0o4755]);
    expect(ownerMode('bin/sg')).toEqual([0, 0, 0o2755]);
    expect(ownerMode('bin/t')).toEqual([0, 0, 0o1755]);
  });

  it('notices a directory that becomes setgid midway', async () => {
    await apply([
      { name: 'd/', type: 'directory' },
      { name: 'd/a', data: 'a' }, // new files in d: root's group, learnt here
      { name: 'd/', type: 'directory', mode: 0o2755, gid: GROUP }, // d again: now setgid
      { name: 'd/b', data: 'b', gid: 0 },
    ]);
    expect(ownerMode('d')).toEqual([0, GROUP, 0o2755]);
    expect(ownerMode('d/b')).toEqual([0, 0, 0o644]);
  });

  it('notices a directory that becomes setgid midway while open under a symlink\'s name', async () => {
    await apply([
      { name: 'd/', type: 'directory' },
      { name: 'd/sub/', type: 'directory' },
      { name: 'l', type: 'symlink', linkname: 'd/sub' },
      { name: 'x', type: 'symlink', linkname: 'nowhere' },
      { name: 'x', data: 'replaces a symlink: the open directories are forgotten' },
      { name: 'l/a', data: 'a' }, // d/sub opened anew, as "l"; its new files' group learnt
      { name: 'd/sub/', type: 'directory', mode: 0o2755, gid: GROUP }, // now setgid
      { name: 'l/b', data: 'b', gid: 0 },
    ]);
    expect(ownerMode('d/sub')).toEqual([0, GROUP, 0o2755]);
    expect(ownerMode('d/sub/b')).toEqual([0, 0, 0o644]);
  });
});
