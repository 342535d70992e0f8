// The real SpecHost against this machine: device nodes, mountinfo, host path preparation.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deviceFromPath, devicesAt, hostFromSystem, mountPropagationOf, splitDevNumber } from '../../../internal/cri/opts/host_access';
import { kindOf } from '../../../internal/errdefs/errors';
import { thrownBy } from '../../harness/thrown';

describe('device look-ups', () => {
  it('reads /dev/null as char 1:3', () => {
    expect(deviceFromPath('/dev/null')).toMatchObject({ path: '/dev/null', type: 'c', major: 1, minor: 3, fileMode: 0o666 });
    expect(devicesAt('/dev/null', '/dev/mynull')).toEqual([expect.objectContaining({ path: '/dev/mynull', major: 1, minor: 3 })]);
  });

  it('splits large device numbers like glibc', () => {
    // makedev(259, 65536) = 0x0000_0010_0010_3000 | ... computed by glibc's formula.
    const major = 259n;
    const minor = 65536n;
    const dev = ((major & 0xfffn) << 8n) | ((major & ~0xfffn) << 32n) | (minor & 0xffn) | ((minor & ~0xffn) << 12n);
    expect(splitDevNumber(dev)).toEqual({ major: 259, minor: 65536 });
  });

  it('refuses a regular file or a missing path as InvalidArgument', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-opts-'));
    try {
      fs.writeFileSync(path.join(dir, 'f'), 'x');
      expect(kindOf(thrownBy(() => devicesAt(path.join(dir, 'f'), '/dev/f')))).toBe('InvalidArgument');
      expect(kindOf(thrownBy(() => devicesAt(path.join(dir, 'missing'), '/dev/m')))).toBe('InvalidArgument');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('walks a device directory of up to its bound, counting every level, and refuses a larger one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-opts-'));
    try {
      fs.mkdirSync(path.join(dir, 'dri'));
      fs.symlinkSync('/dev/null', path.join(dir, 'dri', 'skipped-symlink'));
      for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(dir, 'dri', `f${i}`), '');
      // 1 directory + 6 entries in it.
      expect(devicesAt(dir, '/dev/x', 7)).toEqual([]);
      const err = thrownBy(() => devicesAt(dir, '/dev/x', 6));
      expect(kindOf(err)).toBe('InvalidArgument');
      expect(String(err)).toContain(`device host_path ${JSON.stringify(dir)} holds more than 6 entries`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists host devices without pts, fifos or the console', () => {
    const all = hostFromSystem().allDevices();
    expect(all.some((d) => d.path === '/dev/null')).toBe(true);
    expect(all.every((d) => d.type !== 'p' && !d.path.startsWith('/dev/pts/') && d.path !== '/dev/console')).toBe(true);
  });
});

describe('mountPropagationOf', () => {
  const info = [
    '22 1 0:21 / / rw,relatime shared:1 - ext4 /dev/root rw',
    '30 22 0:25 / /mnt/private rw - tmpfs tmpfs rw',
    '31 22 0:26 / /mnt/slave rw master:7 - tmpfs tmpfs rw',
    '32 31 0:27 / /mnt/slave/inner rw shared:9 master:7 - tmpfs tmpfs rw',
    '33 22 0:28 / /mnt/with\\040space rw - tmpfs tmpfs rw',
  ].join('\n');
  it.each([
    ['/', 'shared'],
    ['/srv/data', 'shared'],
    ['/mnt/private/x', 'private'],
    ['/mnt/privatex', 'shared'], // prefix match is by path element
    ['/mnt/slave', 'slave'],
    ['/mnt/slave/inner/deep', 'shared'],
    ['/mnt/with space/a', 'private'],
  ])('%s is %s', (p, want) => {
    expect(mountPropagationOf(p, info)).toBe(want);
  });
});

describe('hostFromSystem', () => {
  const host = hostFromSystem();

  it('reports this process facts', () => {
    expect(host.hostname).toBe(os.hostname());
    expect(host.oomScoreAdj).toBe(Number(fs.readFileSync('/proc/self/oom_score_adj', 'utf8')));
    expect(host.capabilities).toContain('CAP_CHOWN');
    expect(typeof host.cgroupV2).toBe('boolean');
  });

  it('creates a missing mount source and resolves symlinks', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-opts-'));
    try {
      const missing = path.join(dir, 'a', 'b');
      expect(host.resolveMountSource(missing)).toBe(fs.realpathSync(missing));
      expect(fs.statSync(missing).isDirectory()).toBe(true);
      fs.symlinkSync(missing, path.join(dir, 'link'));
      expect(host.resolveMountSource(path.join(dir, 'link'))).toBe(fs.realpathSync(missing));
      expect(['shared', 'slave', 'private']).toContain(host.mountPropagation(missing));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
