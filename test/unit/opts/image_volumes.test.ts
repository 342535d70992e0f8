// Image volumes: which paths get their own directory (imageVolumeMounts), and how each is seeded
// from the container's overlay layers (seedImageVolumes): the merged view (whiteouts, opaque
// directories), owners, modes, xattrs, times, symlinks as links, hard links, FIFOs and device
// nodes, nothing followed out of the rootfs, and the bounds.
import { chmodSync, chownSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { kindOf } from '../../../internal/errdefs/errors';
import { seedImageVolumes } from '../../../internal/cri/image_volumes';
import { imageVolumeMounts } from '../../../internal/cri/opts/mounts';
import { lgetxattr, llistxattr, lsetxattr, mkfifo, mknod, S_IFCHR } from '../../../internal/sys/fs';
import type { Mount } from '../../../internal/mount/types';
import { mountTmpfs, unmountTmpfs } from '../../harness/tmpfs';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'berth-imgvol-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const T_FILE = new Date('2021-02-03T04:05:06Z');
const T_DIR = new Date('2020-01-02T03:04:05Z');
const T_OLD = new Date('1965-06-07T08:09:10.250Z');

function file(path: string, content: string, mode = 0o644, uid = 0, gid = 0): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  chownSync(path, uid, gid);
  chmodSync(path, mode); // after chown, which clears setuid
}

function overlayOf(upper: string, ...lower: string[]): Mount[] {
  return [{ type: 'overlay', source: 'overlay', options: [`upperdir=${upper}`, `lowerdir=${lower.join(':')}`, `workdir=${join(tmp, 'work')}`] }];
}

/** A fresh empty volume directory, as the spec's bind-mount source is made (root 0755). */
function volumeDir(name: string): string {
  const dir = join(tmp, 'volumes', name);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  return dir;
}

/** One line per path: type, mode, owner, a symlink's target, a file's content, user.* xattrs. */
function describe_(root: string): string[] {
  const lines: string[] = [];
  const visit = (rel: string): void => {
    const path = join(root, rel);
    const st = lstatSync(path);
    const head = `${rel || '.'} ${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid}`;
    const xattrs = llistxattr(path)
      .filter((x) => x.startsWith('user.'))
      .map((x) => ` ${x}=${lgetxattr(path, x)?.toString()}`)
      .join('');
    if (st.isSymbolicLink()) lines.push(`${rel} symlink ${st.uid}:${st.gid} -> ${readlinkSync(path)}`);
    else if (st.isDirectory()) lines.push(`${head} dir${xattrs}`);
    else if (st.isFile()) lines.push(`${head} file${xattrs} ${readFileSync(path, 'utf8')}`);
    else if (st.isFIFO()) lines.push(`${head} fifo`);
    else if (st.isCharacterDevice()) lines.push(`${head} chr ${st.rdev}`);
    if (st.isDirectory()) for (const child of readdirSync(path).sort()) visit(rel ? `${rel}/${child}` : child);
  };
  visit('');
  return lines;
}

describe('imageVolumeMounts', () => {
  it('gives each image volume one directory, skips the ones a CRI mount covers, and none when ignored', () => {
    const image = { Volumes: { '/data': {}, '/data/': {}, 'rel': {}, '/covered': {} } };
    const cri = [{ containerPath: '/covered/', hostPath: '/srv', readonly: false, propagation: 'PROPAGATION_PRIVATE' as const }];
    const mounts = imageVolumeMounts(image, cri, '/root/c/volumes');
    expect(mounts.map((m) => m.containerPath)).toEqual(['/data', '/rel']);
    expect(new Set(mounts.map((m) => m.hostPath)).size).toBe(2);
    for (const m of mounts) expect(m.hostPath).toMatch(/^\/root\/c\/volumes\/[0-9a-f]{32}$/);
    expect(imageVolumeMounts(image, cri, undefined)).toEqual([]);
  });
});

describe('seedImageVolumes', () => {
  it("copies the image's merged content with owners, modes, xattrs, times and links, following nothing out", async () => {
    const lower = join(tmp, 'lower');
    const mid = join(tmp, 'mid');
    const upper = join(tmp, 'upper');
    const victim = join(tmp, 'victim');
    file(join(victim, 'secret'), 'host secret');
    // lower: the volume, owned 1000:1000 0700 with an xattr, its files, links, a FIFO and a device.
    const vol = join(lower, 'var/lib/app');
    mkdirSync(vol, { recursive: true });
    file(join(vol, 'conf'), 'shipped', 0o640, 1000, 1000);
    lsetxattr(join(vol, 'conf'), 'user.origin', 'image');
    linkSync(join(vol, 'conf'), join(vol, 'conf.hard'));
    file(join(vol, 'setuid'), 'x', 0o4755, 1000, 1000);
    symlinkSync('/', join(vol, 'to-root'));
    symlinkSync(victim, join(vol, 'to-victim'));
    symlinkSync('../../../../..' + victim, join(vol, 'dotdot'));
    mkfifo(join(vol, 'fifo'), 0o600);
    chmodSync(join(vol, 'fifo'), 0o620);
    mknod(join(vol, 'null'), S_IFCHR | 0o600, 1, 3);
    chmodSync(join(vol, 'null'), 0o666);
    file(join(vol, 'gone'), 'whited out');
    file(join(vol, 'old/a'), 'hidden by the opaque dir');
    file(join(vol, 'sub/kept'), 'merged from below');
    utimesSync(join(vol, 'conf'), T_FILE, T_FILE);
    file(join(vol, 'ancient'), 'before 1970');
    utimesSync(join(vol, 'ancient'), T_OLD, T_OLD);
    // mid: a whiteout, an opaque directory, a file merged into sub.
    mkdirSync(join(mid, 'var/lib/app'), { recursive: true });
    mknod(join(mid, 'var/lib/app/gone'), S_IFCHR, 0, 0);
    file(join(mid, 'var/lib/app/old/b'), 'from the opaque dir');
    lsetxattr(join(mid, 'var/lib/app/old'), 'trusted.overlay.opaque', 'y');
    file(join(mid, 'var/lib/app/sub/added'), 'merged from above');
    // The topmost copy of the volume directory is what the container sees: 1000:1000 0700, xattrs.
    const top = join(mid, 'var/lib/app');
    chownSync(top, 1000, 1000);
    chmodSync(top, 0o700);
    lsetxattr(top, 'user.vol', 'v');
    lsetxattr(top, 'security.selinux', 'system_u:object_r:container_file_t:s0');
    utimesSync(top, T_DIR, T_DIR);
    // upper (the container's own, empty here).
    mkdirSync(upper, { recursive: true });

    const dst = volumeDir('app');
    await seedImageVolumes(overlayOf(upper, mid, lower), [{ containerPath: '/var/lib/app', hostPath: dst }]);

    expect(describe_(dst)).toEqual([
      '. 700 1000:1000 dir user.vol=v',
      'ancient 644 0:0 file before 1970',
      'conf 640 1000:1000 file user.origin=image shipped',
      'conf.hard 640 1000:1000 file user.origin=image shipped',
      `dotdot symlink 0:0 -> ../../../../..${victim}`,
      'fifo 620 0:0 fifo',
      `null 666 0:0 chr ${lstatSync('/dev/null').rdev}`,
      'old 755 0:0 dir',
      'old/b 644 0:0 file from the opaque dir',
      'setuid 4755 1000:1000 file x',
      'sub 755 0:0 dir',
      'sub/added 644 0:0 file merged from above',
      'sub/kept 644 0:0 file merged from below',
      'to-root symlink 0:0 -> /',
      `to-victim symlink 0:0 -> ${victim}`,
    ]);
    expect(lstatSync(join(dst, 'conf')).ino).toBe(lstatSync(join(dst, 'conf.hard')).ino);
    expect(lstatSync(join(dst, 'conf')).mtime).toEqual(T_FILE);
    expect(lstatSync(join(dst, 'ancient')).mtime).toEqual(T_OLD);
    expect(lstatSync(dst).mtime).toEqual(T_DIR);
    expect(llistxattr(dst)).not.toContain('security.selinux');
    expect(llistxattr(join(dst, 'old'))).not.toContain('trusted.overlay.opaque');
  });

  it('resolves the volume path through symlinks inside the rootfs only', async () => {
    const lower = join(tmp, 'lower');
    const victim = join(tmp, 'victim');
    file(join(victim, 'secret'), 'host secret');
    file(join(lower, 'real/data/f'), 'in the image');
    symlinkSync('/real', join(lower, 'inside'));
    symlinkSync(victim, join(lower, 'abs'));
    symlinkSync(`../../../../../../..${victim}`, join(lower, 'dotdot'));
    mkdirSync(join(tmp, 'upper'));

    const inside = volumeDir('inside');
    const abs = volumeDir('abs');
    const dotdot = volumeDir('dotdot');
    await seedImageVolumes(overlayOf(join(tmp, 'upper'), lower), [
      { containerPath: '/inside/data', hostPath: inside },
      { containerPath: '/abs', hostPath: abs },
      { containerPath: '/dotdot', hostPath: dotdot },
    ]);
    expect(readFileSync(join(inside, 'f'), 'utf8')).toBe('in the image');
    // The host's victim is not in the image: those volumes stay empty, as a missing path does.
    expect(readdirSync(abs)).toEqual([]);
    expect(readdirSync(dotdot)).toEqual([]);
    expect(lstatSync(abs).uid).toBe(0);
  });

  it('refuses a volume path that is a file in the image', async () => {
    const lower = join(tmp, 'lower');
    file(join(lower, 'data'), 'not a directory');
    mkdirSync(join(tmp, 'upper'));
    const err = await seedImageVolumes(overlayOf(join(tmp, 'upper'), lower), [{ containerPath: '/data', hostPath: volumeDir('d') }]).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect((err as Error).message).toContain('image volume /data: it is not a directory in the image');
  });

  it('stops at its bounds and on a full disk', async () => {
    const lower = join(tmp, 'lower');
    for (let i = 0; i < 20; i++) file(join(lower, `data/f${i}`), 'x'.repeat(100_000));
    mkdirSync(join(tmp, 'upper'));
    const rootfs = overlayOf(join(tmp, 'upper'), lower);
    const seed = (hostPath: string, limits = { maxEntries: 1000, maxBytes: 1 << 30, maxDepth: 10 }) =>
      seedImageVolumes(rootfs, [{ containerPath: '/data', hostPath }], limits).then(
        () => new Error('copied without error'),
        (e: unknown) => e as Error,
      );

    const entries = await seed(volumeDir('e'), { maxEntries: 5, maxBytes: 1 << 30, maxDepth: 10 });
    expect(kindOf(entries)).toBe('ResourceExhausted');
    expect(entries.message).toContain('more than 5 entries');
    const bytes = await seed(volumeDir('b'), { maxEntries: 1000, maxBytes: 250_000, maxDepth: 10 });
    expect(kindOf(bytes)).toBe('ResourceExhausted');
    expect(bytes.message).toContain('more than 250000 bytes');

    const small = join(tmp, 'small');
    mountTmpfs(small, '1m');
    try {
      expect((await seed(small)).message).toContain('ENOSPC');
    } finally {
      unmountTmpfs(small);
    }
  });

  it('refuses to copy into a volume directory that is not empty', async () => {
    const lower = join(tmp, 'lower');
    file(join(lower, 'data/f'), 'x');
    mkdirSync(join(tmp, 'upper'));
    const dst = volumeDir('d');
    writeFileSync(join(dst, 'already'), '');
    const err = await seedImageVolumes(overlayOf(join(tmp, 'upper'), lower), [{ containerPath: '/data', hostPath: dst }]).catch((e: unknown) => e);
    expect((err as Error).message).toContain('is not initially empty');
  });
});
