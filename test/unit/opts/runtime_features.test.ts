// What berth learns of a handler's runc for the Status RPC and CreateContainer: "rro" among the
// mountOptions of `runc features` and a 5.12+ kernel mean recursive read-only mounts; a runc
// without `features` (before 1.1) or without "rro" means none. The answer is kept on disk for the
// same binary file under the same kernel, and asked again when the binary changes.
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { featureMountOptions, kernelSupportsRecursiveReadOnly, RuntimeFeatures } from '../../../internal/cri/server/runtime_features';
import { createLogger } from '../../../internal/log/logger';

const logger = createLogger({ level: 'error' });

describe('runtime handler features', () => {
  let dir = '';
  const kernelOk = kernelSupportsRecursiveReadOnly(release());

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-features-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** A fake OCI runtime whose `features` prints `out`, exits `code`, and counts its runs in <path>.runs. */
  function fakeRuntime(path: string, out: string, code = 0): string {
    writeFileSync(path, `#!/bin/sh\n[ "$1" = features ] || exit 2\necho run >> '${path}.runs'\ncat <<'EOF'\n${out}\nEOF\nexit ${code}\n`);
    chmodSync(path, 0o755);
    return path;
  }
  const runsOf = (path: string): number => {
    try {
      return readFileSync(`${path}.runs`, 'utf8').split('\n').filter(Boolean).length;
    } catch {
      return 0;
    }
  };
  const rroDoc = JSON.stringify({ mountOptions: ['ro', 'rro'] });

  const handler = (binary: string) => ({ options: { BinaryName: binary } });

  it('needs mount_setattr with AT_RECURSIVE: Linux 5.12 or later', () => {
    expect(kernelSupportsRecursiveReadOnly('5.11.22-1-amd64')).toBe(false);
    expect(kernelSupportsRecursiveReadOnly('5.12.0')).toBe(true);
    expect(kernelSupportsRecursiveReadOnly('6.1.0-18-amd64')).toBe(true);
    expect(kernelSupportsRecursiveReadOnly('4.19.0')).toBe(false);
    expect(kernelSupportsRecursiveReadOnly('garbage')).toBe(false);
  });

  it('reads the mountOptions of a features document', () => {
    expect(featureMountOptions('{"ociVersionMin":"1.0.0","mountOptions":["ro","rro",3]}')).toEqual(['ro', 'rro']);
    expect(featureMountOptions('{"ociVersionMin":"1.0.0"}')).toEqual([]);
  });

  it('asks the handler runc: rro listed (on this 5.12+ kernel) yes; not listed, or no `features` verb, no', async () => {
    const features = new RuntimeFeatures(undefined, logger);
    const withRro = fakeRuntime(join(dir, 'runc-rro'), rroDoc);
    const withoutRro = fakeRuntime(join(dir, 'runc-no-rro'), JSON.stringify({ mountOptions: ['ro', 'rbind'] }));
    const old = fakeRuntime(join(dir, 'runc-1.0'), "No help topic for 'features'", 1);
    const garbage = fakeRuntime(join(dir, 'runc-garbage'), '{"mountOptions": [');
    expect(await features.of(handler(withRro))).toEqual({ recursiveReadOnlyMounts: kernelOk });
    expect(await features.of(handler(withoutRro))).toEqual({ recursiveReadOnlyMounts: false });
    expect(await features.of(handler(old))).toEqual({ recursiveReadOnlyMounts: false });
    expect(await features.of(handler(garbage))).toEqual({ recursiveReadOnlyMounts: false });
    expect(await features.of(handler(join(dir, 'missing-runc')))).toEqual({ recursiveReadOnlyMounts: false });
    // Asked once per binary while berthd runs.
    expect(await features.of(handler(withRro))).toEqual({ recursiveReadOnlyMounts: kernelOk });
    expect(runsOf(withRro)).toBe(1);
  });

  it('finds `runc` (no BinaryName) on the search path, as the shim does', async () => {
    const bin = join(dir, 'path-bin');
    mkdirSync(bin);
    fakeRuntime(join(bin, 'runc'), rroDoc);
    const features = new RuntimeFeatures(undefined, logger, `${join(dir, 'empty')}:${bin}`);
    expect(await features.of({ options: {} })).toEqual({ recursiveReadOnlyMounts: kernelOk });
    expect(runsOf(join(bin, 'runc'))).toBe(1);
  });

  it('keeps the answer across restarts for the same binary file, and asks a changed binary again', async () => {
    const root = mkdtempSync(join(dir, 'root-'));
    const cacheFile = join(root, 'runtime-features.json');
    const runc = fakeRuntime(join(root, 'runc'), rroDoc);
    expect(await new RuntimeFeatures(cacheFile, logger).of(handler(runc))).toEqual({ recursiveReadOnlyMounts: kernelOk });
    // A restart: a new instance reads the file instead of running the binary.
    expect(await new RuntimeFeatures(cacheFile, logger).of(handler(runc))).toEqual({ recursiveReadOnlyMounts: kernelOk });
    expect(runsOf(runc)).toBe(1);
    // An upgrade replaces the binary (another inode): asked again, and the new answer kept.
    const upgraded = `${runc}.new`;
    fakeRuntime(upgraded, JSON.stringify({ mountOptions: ['ro'] }));
    rmSync(`${upgraded}.runs`, { force: true });
    writeFileSync(runc, readFileSync(upgraded, 'utf8').replace(`'${upgraded}.runs'`, `'${runc}.runs'`));
    expect(await new RuntimeFeatures(cacheFile, logger).of(handler(runc))).toEqual({ recursiveReadOnlyMounts: false });
    expect(await new RuntimeFeatures(cacheFile, logger).of(handler(runc))).toEqual({ recursiveReadOnlyMounts: false });
    expect(runsOf(runc)).toBe(2);
  });

  it('asks when the kept file is damaged or cannot be written, and rewrites a damaged one', async () => {
    const root = mkdtempSync(join(dir, 'root-'));
    const cacheFile = join(root, 'runtime-features.json');
    const runc = fakeRuntime(join(root, 'runc'), rroDoc);
    writeFileSync(cacheFile, '{"version":1,"binaries":{');
    expect(await new RuntimeFeatures(cacheFile, logger).of(handler(runc))).toEqual({ recursiveReadOnlyMounts: kernelOk });
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).binaries[runc].recursiveReadOnlyMounts).toBe(kernelOk);
    // A wrong shape (another version's file) counts as damaged too.
    writeFileSync(cacheFile, JSON.stringify({ version: 1, binaries: { [runc]: { recursiveReadOnlyMounts: 'yes' } } }));
    expect(await new RuntimeFeatures(cacheFile, logger).of(handler(runc))).toEqual({ recursiveReadOnlyMounts: kernelOk });
    expect(runsOf(runc)).toBe(2);
    // Where the file would go is a directory (as good as a full disk for a rename): still answered.
    const blocked = join(root, 'blocked');
    mkdirSync(blocked);
    appendFileSync(join(blocked, 'keep'), 'x');
    expect(await new RuntimeFeatures(blocked, logger).of(handler(runc))).toEqual({ recursiveReadOnlyMounts: kernelOk });
    expect(await new RuntimeFeatures(blocked, logger).of(handler(runc))).toEqual({ recursiveReadOnlyMounts: kernelOk });
    expect(runsOf(runc)).toBe(4);
  });
});
