// applyLayer against a real filesystem: every entry type, owners, modes, times, xattrs, overlay
// whiteouts, and hostile layers that must not write outside the target.
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLayer } from '../../../internal/archive';
import { kindOf } from '../../../internal/errdefs/errors';
import { lgetxattr } from '../../../internal/sys/fs';
import { paxRecord, rawTar } from './raw_tar';
import { buildTar, gzip, sha256, streamOf, T0, type TarEntry } from './tarball';

let scratch: string;
let target: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-archive-'));
  target = join(scratch, 'root');
  mkdirSync(target);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const T1 = new Date('2021-05-06T07:08:09Z');

const everyType: TarEntry[] = [
  { name: 'etc/', type: 'directory', mode: 0o750, uid: 10, gid: 20, mtime: T1 },
  { name: 'etc/motd', data: 'hello\n', mode: 0o640, uid: 1000, gid: 1001, mtime: T1 },
  { name: 'bin/', type: 'directory' },
  { name: 'bin/su', data: '#!su', mode: 0o4755, uid: 1000, gid: 0 },
  { name: 'bin/sg', data: '#!sg', mode: 0o2711, uid: 0, gid: 50 },
  { name: 'bin/su-link', type: 'link', linkname: 'bin/su', mode: 0o4750, uid: 1000, mtime: T1 },
  { name: 'bin/sh', type: 'symlink', linkname: '/bin/busybox', uid: 7, gid: 8, mtime: T1 },
  { name: 'tmp/', type: 'directory', mode: 0o1777 },
  { name: 'dev/', type: 'directory' },
  { name: 'dev/null', type: 'character-device', mode: 0o666, devmajor: 1, devminor: 3 },
  { name: 'dev/loop0', type: 'block-device', mode: 0o660, devmajor: 7, devminor: 0, gid: 6 },
  { name: 'run/fifo', type: 'fifo', mode: 0o620 },
  { name: 'xattr', data: 'x', pax: { 'SCHILY.xattr.user.greeting': 'hi there', 'SCHILY.xattr.security.k': 'v' } },
];

describe('applyLayer', () => {
  it('writes every entry type with its owner, mode, times and xattrs', async () => {
    const tarball = await buildTar(everyType);
    const result = await applyLayer(target, streamOf(tarball));
    expect(result.diffID).toBe(sha256(tarball));
    expect(result.size).toBe(tarball.length);
    expect(result.compression).toBe('none');

    const st = (p: string) => lstatSync(join(target, p));
    expect(st('etc').isDirectory()).toBe(true);
    expect(st('etc').mode & 0o7777).toBe(0o750);
    expect([st('etc').uid, st('etc').gid]).toEqual([10, 20]);
    expect(st('etc').mtimeMs).toBe(T1.getTime()); // set after etc/motd was written into it
    expect(readFileSync(join(target, 'etc/motd'), 'utf8')).toBe('hello\n');
    expect(st('etc/motd').mode & 0o7777).toBe(0o640);
    expect([st('etc/motd').uid, st('etc/motd').gid]).toEqual([1000, 1001]);
    expect(st('etc/motd').mtimeMs).toBe(T1.getTime());
    expect(st('bin/sg').mode & 0o7777).toBe(0o2711);
    expect(st('bin/su-link').ino).toBe(st('bin/su').ino);
    // One inode, and the link's header applies to it last, as containerd applies it; the setuid
    // bit survives the chown before the chmod.
    expect(st('bin/su').mode & 0o7777).toBe(0o4750);
    expect(st('bin/su').mtimeMs).toBe(T1.getTime());
    expect(st('bin/sh').isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(target, 'bin/sh'))).toBe('/bin/busybox');
    expect([st('bin/sh').uid, st('bin/sh').gid]).toEqual([7, 8]);
    expect(st('bin/sh').mtimeMs).toBe(T1.getTime());
    expect(st('tmp').mode & 0o7777).toBe(0o1777);
    expect(st('dev/null').isCharacterDevice()).toBe(true);
    expect(st('dev/null').rdev).toBe((1 << 8) | 3);
    expect(st('dev/null').mode & 0o7777).toBe(0o666);
    expect(st('dev/loop0').isBlockDevice()).toBe(true);
    expect(st('dev/loop0').rdev).toBe(7 << 8);
    expect(st('dev/loop0').gid).toBe(6);
    expect(st('run/fifo').isFIFO()).toBe(true);
    expect(st('run/fifo').mode & 0o7777).toBe(0o620);
    expect(lgetxattr(join(target, 'xattr'), 'user.greeting')?.toString()).toBe('hi there');
    expect(lgetxattr(join(target, 'xattr'), 'security.k')?.toString()).toBe('v');
    expect(result.impliedDirs).toEqual(['', 'run']);
    expect(st('run').mode & 0o7777).toBe(0o755);
  });

  it('skips a user.* xattr where Linux keeps none (a symlink, a device, a FIFO), as containerd does, and sets the rest', async () => {
    await applyLayer(target, streamOf(await buildTar([
      { name: 'link', type: 'symlink', linkname: 'file', pax: { 'SCHILY.xattr.user.a': '1' } },
      { name: 'null', type: 'character-device', devmajor: 1, devminor: 3, pax: { 'SCHILY.xattr.user.b': '2' } },
      { name: 'pipe', type: 'fifo', pax: { 'SCHILY.xattr.user.c': '3', 'SCHILY.xattr.security.t': 'kept' } },
      { name: 'file', data: 'f', pax: { 'SCHILY.xattr.user.d': '4' } },
      { name: 'dir/', type: 'directory', pax: { 'SCHILY.xattr.user.e': '5' } },
    ])));
    expect(lstatSync(join(target, 'link')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(target, 'null')).isCharacterDevice()).toBe(true);
    expect(lgetxattr(join(target, 'pipe'), 'user.c')).toBeUndefined();
    expect(lgetxattr(join(target, 'pipe'), 'security.t')?.toString()).toBe('kept');
    expect(lgetxattr(join(target, 'file'), 'user.d')?.toString()).toBe('4');
    expect(lgetxattr(join(target, 'dir'), 'user.e')?.toString()).toBe('5');
  });

  it('sets binary xattrs byte for byte: a security.capability survives the chown before it', async () => {
    // cap_setuid+ep (VFS_CAP_REVISION_2): 0x80 is not UTF-8, so a text-decoded PAX value would be mangled.
    const capability = Buffer.from([1, 0, 0, 2, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const blob = Buffer.from([0xff, 0x00, 0xfe, 0x0a]);
    const tarball = rawTar([
      {
        name: 'PaxHeaders/ping',
        typeflag: 'x',
        data: Buffer.concat([paxRecord('SCHILY.xattr.security.capability', capability), paxRecord('SCHILY.xattr.user.blob', blob)]),
      },
      { name: 'ping', typeflag: '0', data: Buffer.from('ELF'), mode: 0o755, uid: 1000 },
    ]);
    await applyLayer(target, streamOf(tarball, 100));
    const ping = join(target, 'ping');
    expect(lgetxattr(ping, 'security.capability')).toEqual(capability);
    expect(lgetxattr(ping, 'user.blob')).toEqual(blob);
    expect(lstatSync(ping).uid).toBe(1000);
    expect(readFileSync(ping, 'utf8')).toBe('ELF');
  });

  it('gives a gzip layer the diffID of its uncompressed tar', async () => {
    const tarball = await buildTar([{ name: 'a', data: 'A' }]);
    const result = await applyLayer(target, streamOf(gzip(tarball), 7), { expectedDiffID: sha256(tarball) });
    expect(result.compression).toBe('gzip');
    expect(result.diffID).toBe(sha256(tarball));
    expect(readFileSync(join(target, 'a'), 'utf8')).toBe('A');
  });

  it('counts bytes after the end-of-archive blocks toward the diffID', async () => {
    const tarball = Buffer.concat([await buildTar([{ name: 'a', data: 'A' }]), Buffer.alloc(8192)]);
    expect((await applyLayer(target, streamOf(tarball))).diffID).toBe(sha256(tarball));
  });

  it('fails on a diffID mismatch', async () => {
    const tarball = await buildTar([{ name: 'a', data: 'A' }]);
    const wrong = sha256(Buffer.from('something else'));
    const err = await applyLayer(target, streamOf(tarball), { expectedDiffID: wrong }).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain(wrong);
    expect(String(err)).toContain(sha256(tarball));
  });

  it('fails when the source stream fails midway', async () => {
    const tarball = gzip(await buildTar([{ name: 'big', data: Buffer.alloc(200_000, 7) }]));
    async function* failing(): AsyncGenerator<Buffer> {
      yield tarball.subarray(0, 1000);
      throw new Error('registry connection reset');
    }
    const err = await applyLayer(target, failing()).catch((e: unknown) => e);
    expect(String(err)).toContain('registry connection reset');
  });

  it('fails on bytes that are not a tar', async () => {
    const err = await applyLayer(target, streamOf(Buffer.alloc(1024, 'x'))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
  });

  it('stores whiteouts as overlayfs does', async () => {
    const tarball = await buildTar([
      { name: 'etc/', type: 'directory' },
      { name: 'etc/.wh.passwd', data: '' },
      { name: 'var/.wh..wh..opq', data: '' },
      { name: 'var/new', data: 'n' },
      { name: '.wh..wh.plnk', type: 'directory' },
    ]);
    await applyLayer(target, streamOf(tarball));
    const wh = lstatSync(join(target, 'etc/passwd'));
    expect(wh.isCharacterDevice()).toBe(true);
    expect(wh.rdev).toBe(0);
    expect(lgetxattr(join(target, 'var'), 'trusted.overlay.opaque')?.toString()).toBe('y');
    expect(readFileSync(join(target, 'var/new'), 'utf8')).toBe('n');
    expect(readdirSync(target).sort()).toEqual(['etc', 'var']);
    expect(readdirSync(join(target, 'etc'))).toEqual(['passwd']);
  });

  it('deletes what whiteouts hide in "remove" mode, sparing what the layer itself wrote', async () => {
    await applyLayer(target, streamOf(await buildTar([
      { name: 'keep', data: 'k' },
      { name: 'gone', data: 'g' },
      { name: 'd/old1', data: '1' },
      { name: 'd/sub/old2', data: '2' },
    ])));
    await applyLayer(target, streamOf(await buildTar([
      { name: 'd/', type: 'directory' },
      { name: 'd/fresh', data: 'f' },
      { name: 'd/.wh..wh..opq', data: '' },
      { name: '.wh.gone', data: '' },
      { name: 'nodir/.wh.x', data: '' },
    ])), { whiteouts: 'remove' });
    expect(readdirSync(target).sort()).toEqual(['d', 'keep']);
    expect(readdirSync(join(target, 'd'))).toEqual(['fresh']);
  });

  it('follows a symlink that stays inside the root', async () => {
    await applyLayer(target, streamOf(await buildTar([
      { name: 'usr/lib/', type: 'directory' },
      { name: 'lib', type: 'symlink', linkname: 'usr/lib' },
      { name: 'lib/libc.so', data: 'c' },
    ])));
    expect(readFileSync(join(target, 'usr/lib/libc.so'), 'utf8')).toBe('c');
    expect(lstatSync(join(target, 'lib')).isSymbolicLink()).toBe(true);
  });

  it('replaces an existing entry of another type and keeps an existing directory', async () => {
    await applyLayer(target, streamOf(await buildTar([
      { name: 'x/inner', data: 'i' },
      { name: 'y', data: 'file' },
    ])));
    await applyLayer(target, streamOf(await buildTar([
      { name: 'x', data: 'now a file' },
      { name: 'y/', type: 'directory', mode: 0o711 },
      { name: 'y/z', data: 'z' },
    ])));
    expect(readFileSync(join(target, 'x'), 'utf8')).toBe('now a file');
    expect(lstatSync(join(target, 'y')).mode & 0o7777).toBe(0o711);
    expect(readFileSync(join(target, 'y/z'), 'utf8')).toBe('z');
  });

  it('ignores an entry naming the root ("./", "."), as containerd does', async () => {
    const before = lstatSync(target);
    const result = await applyLayer(target, streamOf(await buildTar([
      { name: './', type: 'directory', mode: 0o700, uid: 1000, gid: 1000, mtime: T0, pax: { 'SCHILY.xattr.user.root': 'r' } },
      { name: '.', type: 'directory', mode: 0o750 },
      { name: './a', data: 'a' },
    ])));
    expect(result.impliedDirs).toEqual(['']);
    const root = lstatSync(target);
    expect([root.mode & 0o7777, root.uid, root.gid]).toEqual([before.mode & 0o7777, before.uid, before.gid]);
    expect(lgetxattr(target, 'user.root')).toBeUndefined();
    expect(readFileSync(join(target, 'a'), 'utf8')).toBe('a');
  });

  // In "remove" mode, applied where the layer's parents already are: a target not found is final.
  describe('refuses hostile layers and writes nothing outside the target', () => {
    const hostile: Array<[string, TarEntry[], string]> = [
      ['a ".." that climbs out', [{ name: '../evil', data: 'x' }], '../evil'],
      ['a deeper ".." that climbs out', [{ name: 'a/../../evil', data: 'x' }], 'a/../../evil'],
      ['an absolute path', [{ name: '/evil', data: 'x' }], '/evil'],
      ['a hard link to a file outside', [{ name: 'evil', type: 'link', linkname: '../outside' }], 'evil'],
      ['a hard link through a symlink out', [{ name: 'up', type: 'symlink', linkname: '..' }, { name: 'evil', type: 'link', linkname: 'up/outside' }], 'evil'],
      ['a walk through a file', [{ name: 'f', data: 'f' }, { name: 'f/evil', data: 'x' }], 'f/evil'],
    ];
    it.each(hostile)('%s', async (_what, entries, culprit) => {
      writeFileSync(join(scratch, 'outside'), 'precious');
      const before = readdirSync(scratch).sort();
      const tarball = await buildTar(entries);
      const err = await applyLayer(target, streamOf(tarball), { whiteouts: 'remove' }).catch((e: unknown) => e);
      expect(kindOf(err)).toBe('InvalidArgument');
      expect(String(err)).toContain(`"${culprit}"`);
      expect(readdirSync(scratch).sort()).toEqual(before);
      expect(readFileSync(join(scratch, 'outside'), 'utf8')).toBe('precious');
      expect(existsSync('/evil')).toBe(false);
      expect(lstatSync(join(scratch, 'outside')).nlink).toBe(1);
    });
  });

  it('extracting a layer on its own, reports hard links whose target is not in it instead of writing them', async () => {
    // The target may be in a lower layer (containerd, applying on the parents, links to it there).
    writeFileSync(join(scratch, 'outside'), 'precious');
    const result = await applyLayer(target, streamOf(await buildTar([
      { name: 'bin/', type: 'directory' },
      { name: 'bin/here', data: 'h' },
      { name: 'bin/b', type: 'link', linkname: 'bin/a' },
      { name: 'bin/c', type: 'link', linkname: 'bin/here' },
      { name: 'up', type: 'symlink', linkname: '..' },
      { name: 'evil', type: 'link', linkname: 'up/outside' },
    ])));
    expect(result.linksOutside).toEqual(['bin/b', 'evil']);
    expect(readdirSync(join(target, 'bin')).sort()).toEqual(['c', 'here']);
    expect(existsSync(join(target, 'evil'))).toBe(false);
    expect(lstatSync(join(scratch, 'outside')).nlink).toBe(1);
  });

  describe('follows symlinks as containerd (fs.RootPath) does: inside the root, whatever their target', () => {
    // [what, entries, where the last entry lands under the root]
    const walks: Array<[string, TarEntry[], string]> = [
      ['an absolute symlink, as var/run -> /run', [{ name: 'run/', type: 'directory' }, { name: 'var/run', type: 'symlink', linkname: '/run' }, { name: 'var/run/x', data: 'x' }], 'run/x'],
      ['a symlink to /', [{ name: 'a', type: 'symlink', linkname: '/' }, { name: 'a/evil', data: 'x' }], 'evil'],
      ['a symlink that climbs above the root', [{ name: 'b', type: 'symlink', linkname: '../..' }, { name: 'b/evil', data: 'x' }], 'evil'],
      ['a chain of symlinks up', [{ name: 'c', type: 'symlink', linkname: 'd' }, { name: 'd', type: 'symlink', linkname: '..' }, { name: 'c/evil', data: 'x' }], 'evil'],
      ['an absolute symlink with ".." above the root', [{ name: 'e', type: 'symlink', linkname: '/../../usr' }, { name: 'e/evil', data: 'x' }], 'usr/evil'],
      ['a symlink already on disk from an earlier layer', [{ name: 'lib', type: 'symlink', linkname: '/usr/lib' }, { name: 'lib/x.so', data: 'x' }], 'usr/lib/x.so'],
    ];
    it.each(walks)('%s', async (_what, entries, landed) => {
      writeFileSync(join(scratch, 'outside'), 'precious');
      const before = readdirSync(scratch).sort();
      if (landed === 'usr/lib/x.so') {
        // The symlink comes in one layer, the entry under it in the next.
        await applyLayer(target, streamOf(await buildTar(entries.slice(0, 1))));
        await applyLayer(target, streamOf(await buildTar(entries.slice(1))));
      } else {
        await applyLayer(target, streamOf(await buildTar(entries)));
      }
      expect(readFileSync(join(target, landed), 'utf8')).toBe('x');
      expect(readdirSync(scratch).sort()).toEqual(before);
      expect(readFileSync(join(scratch, 'outside'), 'utf8')).toBe('precious');
      expect(existsSync('/evil')).toBe(false);
      expect(existsSync('/usr/evil')).toBe(false);
    });

    it('a whiteout and an opaque directory through a symlink up mark the root, nothing outside', async () => {
      writeFileSync(join(scratch, 'outside'), 'precious');
      await applyLayer(target, streamOf(await buildTar([
        { name: 'up', type: 'symlink', linkname: '..' },
        { name: 'up/.wh.outside', data: '' },
        { name: 'top', type: 'symlink', linkname: '/' },
        { name: 'top/.wh..wh..opq', data: '' },
      ])));
      const whiteout = lstatSync(join(target, 'outside'));
      expect(whiteout.isCharacterDevice() && whiteout.rdev === 0).toBe(true);
      expect(lgetxattr(target, 'trusted.overlay.opaque')?.toString()).toBe('y');
      expect(readFileSync(join(scratch, 'outside'), 'utf8')).toBe('precious');
    });

    it('a whiteout through a symlink up in "remove" mode removes only what is inside', async () => {
      writeFileSync(join(scratch, 'outside'), 'precious');
      await applyLayer(target, streamOf(await buildTar([{ name: 'outside', data: 'inside' }])));
      await applyLayer(target, streamOf(await buildTar([{ name: 'up', type: 'symlink', linkname: '..' }, { name: 'up/.wh.outside', data: '' }])), {
        whiteouts: 'remove',
      });
      expect(existsSync(join(target, 'outside'))).toBe(false);
      expect(readFileSync(join(scratch, 'outside'), 'utf8')).toBe('precious');
    });
  });
});
