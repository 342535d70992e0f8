// What a layer's tar makes on disk, where containerd 1.6's unpack (Go's archive/tar and
// containerd's archive/tar.go) decides it differently from a naive reading: names as bytes,
// trusted.* and unsupported xattrs, a hard link's own header, whiteouts of the same layer's
// files, zero blocks, and GNU sparse files.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLayer } from '../../../internal/archive';
import { kindOf } from '../../../internal/errdefs/errors';
import { lgetxattr } from '../../../internal/sys/fs';
import { paxRecord, rawTar } from './raw_tar';
import { buildTar, streamOf } from './tarball';

let scratch: string;
let target: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-archive-parity-'));
  target = join(scratch, 'root');
  mkdirSync(target);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const CAPABILITY = Buffer.from([1, 0, 0, 2, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // cap_setuid+ep
const names = (dir: string): Buffer[] => (readdirSync(dir, { encoding: 'buffer' }) as Buffer[]).sort(Buffer.compare);

describe('layer unpack as containerd unpacks it', () => {
  it('keeps names and link targets that are not UTF-8 byte for byte, each its own file', async () => {
    const e9 = Buffer.from('caf\xe9', 'latin1');
    const e8 = Buffer.from('caf\xe8', 'latin1');
    const dir = Buffer.from('dir\xff/', 'latin1');
    const paxName = Buffer.from('pax-\xe9-long', 'latin1');
    const tarball = rawTar([
      { name: e9, typeflag: '0', data: Buffer.from('e9') },
      { name: e8, typeflag: '0', data: Buffer.from('e8') },
      { name: dir, typeflag: '5', mode: 0o755 },
      { name: Buffer.concat([dir, Buffer.from('inner')]), typeflag: '0', data: Buffer.from('in') },
      { name: 'lnk', typeflag: '2', linkname: e9 },
      { name: 'PaxHeaders/x', typeflag: 'x', data: paxRecord('path', paxName) },
      { name: 'ignored', typeflag: '0', data: Buffer.from('pax') },
      { name: 'hard', typeflag: '1', linkname: e8 },
    ]);
    await applyLayer(target, streamOf(tarball, 333));
    const root = Buffer.from(`${target}/`);
    const at = (name: Buffer): Buffer => Buffer.concat([root, name]);
    expect(names(target)).toEqual(
      [e8, e9, Buffer.from('dir\xff', 'latin1'), Buffer.from('hard'), Buffer.from('lnk'), paxName].sort(Buffer.compare),
    );
    expect(readFileSync(at(e9), 'utf8')).toBe('e9');
    expect(readFileSync(at(e8), 'utf8')).toBe('e8');
    expect(readFileSync(at(Buffer.from('dir\xff/inner', 'latin1')), 'utf8')).toBe('in');
    expect(readlinkSync(at(Buffer.from('lnk')), { encoding: 'buffer' })).toEqual(e9);
    expect(readFileSync(at(paxName), 'utf8')).toBe('pax');
    expect(lstatSync(at(Buffer.from('hard'))).ino).toBe(lstatSync(at(e8)).ino);
  });

  it('names an entry in an error as the UTF-8 it most often is', async () => {
    const tarball = rawTar([{ name: Buffer.from('grüße/../../x'), typeflag: '0', data: Buffer.from('x') }]);
    const err = await applyLayer(target, streamOf(tarball)).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain('layer entry "grüße/../../x": escapes the root');
  });

  it('skips trusted.* xattrs (an opaque marker among them: only whiteout entries hide lower files) and ones the filesystem refuses', async () => {
    await applyLayer(target, streamOf(await buildTar([
      { name: 'd/', type: 'directory', pax: { 'SCHILY.xattr.trusted.overlay.opaque': 'y', 'SCHILY.xattr.user.kept': 'k' } },
      { name: 'd/f', data: 'f', pax: { 'SCHILY.xattr.trusted.overlay.redirect': '/elsewhere', 'SCHILY.xattr.foo.bar': 'x' } },
    ])));
    expect(lgetxattr(join(target, 'd'), 'trusted.overlay.opaque')).toBeUndefined();
    expect(lgetxattr(join(target, 'd'), 'user.kept')?.toString()).toBe('k');
    expect(lgetxattr(join(target, 'd/f'), 'trusted.overlay.redirect')).toBeUndefined();
    expect(readFileSync(join(target, 'd/f'), 'utf8')).toBe('f');
  });

  it("applies a hard link's own header to the inode: owner, mode, times, and its chown drops a capability it does not repeat", async () => {
    const ping = (link: Record<string, Buffer>) =>
      rawTar([
        { name: 'PaxHeaders/ping', typeflag: 'x', data: paxRecord('SCHILY.xattr.security.capability', CAPABILITY) },
        { name: 'bin/ping', typeflag: '0', data: Buffer.from('ELF'), mode: 0o4755, mtime: 1_600_000_000 },
        ...(Object.keys(link).length > 0
          ? [{ name: 'PaxHeaders/ping6', typeflag: 'x', data: Buffer.concat(Object.entries(link).map(([k, v]) => paxRecord(k, v))) }]
          : []),
        { name: 'bin/ping6', typeflag: '1', linkname: 'bin/ping', mode: 0o4750, uid: 7, mtime: 1_600_000_100 },
      ]);
    await applyLayer(target, streamOf(ping({})));
    const bare = lstatSync(join(target, 'bin/ping'));
    expect([bare.mode & 0o7777, bare.uid, bare.mtimeMs / 1000, bare.nlink]).toEqual([0o4750, 7, 1_600_000_100, 2]);
    expect(lgetxattr(join(target, 'bin/ping'), 'security.capability')).toBeUndefined();

    rmSync(target, { recursive: true });
    mkdirSync(target);
    await applyLayer(target, streamOf(ping({ 'SCHILY.xattr.security.capability': CAPABILITY })));
    expect(lgetxattr(join(target, 'bin/ping6'), 'security.capability')).toEqual(CAPABILITY);
  });

  it.each(['overlay', 'remove'] as const)('refuses a whiteout of a file the same layer wrote (%s whiteouts), and hides a lower one', async (whiteouts) => {
    if (whiteouts === 'remove') await applyLayer(target, streamOf(await buildTar([{ name: 'lower', data: 'l' }])));
    await applyLayer(target, streamOf(await buildTar([{ name: 'd/x', data: 'x' }, { name: '.wh.lower', data: '' }])), { whiteouts });
    if (whiteouts === 'remove') expect(names(target)).toEqual([Buffer.from('d')]);
    else expect(lstatSync(join(target, 'lower')).isCharacterDevice()).toBe(true);

    if (whiteouts === 'remove') await applyLayer(target, streamOf(await buildTar([{ name: 'lowerdir/old', data: 'o' }])));
    for (const same of [
      [{ name: 'newf', data: 'n' }, { name: '.wh.newf', data: '' }],
      [{ name: 'sub/f', data: 'f' }, { name: '.wh.sub', data: '' }],
      // A directory of a lower layer this layer wrote into: its file is this layer's too.
      ...(whiteouts === 'remove' ? [[{ name: 'lowerdir/mine', data: 'm' }, { name: '.wh.lowerdir', data: '' }]] : []),
    ]) {
      const err = await applyLayer(target, streamOf(await buildTar(same)), { whiteouts }).catch((e: unknown) => e);
      expect(kindOf(err)).toBe('InvalidArgument');
      expect(String(err)).toContain('which this same layer wrote');
    }
  });

  it("sets times to the PAX record's nanosecond, the access time to the later of the two, and times before the epoch to the epoch", async () => {
    const times = (mtime: string, atime: string) => paxRecord('mtime', Buffer.from(mtime)).toString('latin1') + paxRecord('atime', Buffer.from(atime)).toString('latin1');
    const tarball = rawTar([
      { name: 'PaxHeaders/a', typeflag: 'x', data: Buffer.from(times('1700000000.123456789', '1600000000.5'), 'latin1') },
      { name: 'a', typeflag: '0', data: Buffer.from('a') },
      { name: 'PaxHeaders/b', typeflag: 'x', data: Buffer.from(times('-86400.25', '1700000000.000000001'), 'latin1') },
      { name: 'b', typeflag: '0', data: Buffer.from('b') },
    ]);
    await applyLayer(target, streamOf(tarball));
    const a = lstatSync(join(target, 'a'), { bigint: true });
    expect([a.mtimeNs, a.atimeNs]).toEqual([1_700_000_000_123_456_789n, 1_700_000_000_123_456_789n]);
    const b = lstatSync(join(target, 'b'), { bigint: true });
    expect([b.mtimeNs, b.atimeNs]).toEqual([0n, 1_700_000_000_000_000_001n]);
  });

  it('refuses a lone zero block before more entries, and takes one before the end', async () => {
    const a = rawTar([{ name: 'a', typeflag: '0', data: Buffer.from('a') }]).subarray(0, 1024); // header + data, no end blocks
    const b = rawTar([{ name: 'b', typeflag: '0', data: Buffer.from('b') }]);
    const err = await applyLayer(target, streamOf(Buffer.concat([a, Buffer.alloc(512), b]))).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain('lone zero block before entry "b"');

    rmSync(target, { recursive: true });
    mkdirSync(target);
    await applyLayer(target, streamOf(Buffer.concat([a, Buffer.alloc(512)])));
    expect(readFileSync(join(target, 'a'), 'utf8')).toBe('a');
  });

  it.each(['0.0', '0.1', '1.0'])('expands a GNU sparse file (PAX format %s) to its size and bytes, holes and all', async (version) => {
    // A file with data at 0, in the middle, and a hole at its end, as GNU tar --sparse stores it.
    const source = join(scratch, 'src');
    mkdirSync(source);
    const fd = openSync(join(source, 'sp'), 'w');
    writeSync(fd, Buffer.alloc(5000, 'a'), 0, 5000, 0);
    writeSync(fd, Buffer.alloc(70_000, 'b'), 0, 70_000, 1 << 20);
    closeSync(fd);
    execFileSync('truncate', ['-s', String(3 << 20), join(source, 'sp')]);
    const tarball = execFileSync('tar', ['--format=pax', `--sparse-version=${version}`, '-S', '-C', source, '-cf', '-', 'sp'], { maxBuffer: 64 << 20 });
    expect(tarball.includes('GNU.sparse')).toBe(true); // GNU tar did store it sparse

    await applyLayer(target, streamOf(Buffer.concat([tarball]), 4096));
    expect(names(target)).toEqual([Buffer.from('sp')]);
    const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
    expect(lstatSync(join(target, 'sp')).size).toBe(3 << 20);
    expect(sha(join(target, 'sp'))).toBe(sha(join(source, 'sp')));
  });

  it("wastes no time on a sparse header of an entry that has no data to write (a whiteout's), whatever size it claims", async () => {
    const pax = Buffer.concat([
      paxRecord('GNU.sparse.major', Buffer.from('0')),
      paxRecord('GNU.sparse.minor', Buffer.from('1')),
      paxRecord('GNU.sparse.size', Buffer.from(String(2 ** 52))),
      paxRecord('GNU.sparse.numblocks', Buffer.from('0')),
      paxRecord('GNU.sparse.map', Buffer.from('')),
    ]);
    const tarball = rawTar([
      { name: 'PaxHeaders/wh', typeflag: 'x', data: pax },
      { name: '.wh.gone', typeflag: '0' },
      { name: 'after', typeflag: '0', data: Buffer.from('a') },
    ]);
    await applyLayer(target, streamOf(tarball)); // would fill 2^52 bytes of nothing, 64 KiB at a time
    expect(readFileSync(join(target, 'after'), 'utf8')).toBe('a');
  });

  it('parses a big 1.0 sparse map in one pass', async () => {
    // 60,000 one-byte fragments: a ~0.8 MiB map, re-read at every block it would cost minutes.
    const count = 60_000;
    const lines = [String(count)];
    for (let i = 0; i < count; i++) lines.push(String(i * 2), '1');
    const text = Buffer.from(lines.join('\n') + '\n');
    const map = Buffer.concat([text, Buffer.alloc((512 - (text.length % 512)) % 512)]);
    const pax = Buffer.concat([
      paxRecord('GNU.sparse.major', Buffer.from('1')),
      paxRecord('GNU.sparse.minor', Buffer.from('0')),
      paxRecord('GNU.sparse.name', Buffer.from('big')),
      paxRecord('GNU.sparse.realsize', Buffer.from(String(count * 2))),
    ]);
    const tarball = rawTar([
      { name: 'PaxHeaders/big', typeflag: 'x', data: pax },
      { name: 'GNUSparseFile.0/big', typeflag: '0', data: Buffer.concat([map, Buffer.alloc(count, 'x')]) },
    ]);
    await applyLayer(target, streamOf(tarball, 64 * 1024));
    const content = readFileSync(join(target, 'big'));
    expect(content.length).toBe(count * 2);
    expect(content.subarray(0, 6)).toEqual(Buffer.from('x\0x\0x\0'));
  }, 30_000);

  it('reads an entry with an empty GNU.sparse.map and no version as a plain file, as Go does', async () => {
    const tarball = rawTar([
      { name: 'PaxHeaders/f', typeflag: 'x', data: paxRecord('GNU.sparse.map', Buffer.from('')) },
      { name: 'f', typeflag: '0', data: Buffer.from('plain') },
    ]);
    await applyLayer(target, streamOf(tarball));
    expect(readFileSync(join(target, 'f'), 'utf8')).toBe('plain');
  });

  it('refuses a sparse map that does not match the data', async () => {
    const sparse = (map: string, data: Buffer) =>
      rawTar([
        {
          name: 'PaxHeaders/sp',
          typeflag: 'x',
          data: Buffer.concat([paxRecord('GNU.sparse.size', Buffer.from('100')), paxRecord('GNU.sparse.numblocks', Buffer.from(String(map.split(',').length / 2))), paxRecord('GNU.sparse.map', Buffer.from(map))]),
        },
        { name: 'sp', typeflag: '0', data },
      ]);
    for (const [map, data, why] of [
      ['0,10,5,10', Buffer.alloc(20), 'overlapping'],
      ['0,10,95,10', Buffer.alloc(20), 'out-of-file'],
      ['0,10', Buffer.alloc(20), 'bytes of data where'],
      ['0,10,20,10', Buffer.alloc(10), 'bytes of data where'],
    ] as const) {
      const err = await applyLayer(target, streamOf(sparse(map, data))).catch((e: unknown) => e);
      expect([kindOf(err), String(err)]).toEqual(['InvalidArgument', expect.stringContaining(why)]);
    }
  });
});
