// What berth learns of a handler's runc for the Status RPC and CreateContainer: "rro" among the
// mountOptions of `runc features` and a 5.12+ kernel mean recursive read-only mounts; a runc
// without `features` (before 1.1) or without "rro" means none.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { featureMountOptions, handlerFeatures, kernelSupportsRecursiveReadOnly } from '../../../internal/cri/server/runtime_features';
import { createLogger } from '../../../internal/log/logger';

const logger = createLogger({ level: 'error' });

describe('runtime handler features', () => {
  let dir = '';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-features-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** A fake OCI runtime whose `features` prints `out` and exits `code`. */
  function fakeRuntime(name: string, out: string, code = 0): string {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n[ "$1" = features ] || exit 2\ncat <<'EOF'\n${out}\nEOF\nexit ${code}\n`);
    chmodSync(path, 0o755);
    return path;
  }

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
    const kernelOk = kernelSupportsRecursiveReadOnly(release());
    const withRro = fakeRuntime('runc-rro', JSON.stringify({ mountOptions: ['ro', 'rro'] }));
    const withoutRro = fakeRuntime('runc-no-rro', JSON.stringify({ mountOptions: ['ro', 'rbind'] }));
    const old = fakeRuntime('runc-1.0', 'No help topic for \'features\'', 1);
    expect(await handlerFeatures(handler(withRro), logger)).toEqual({ recursiveReadOnlyMounts: kernelOk });
    expect(await handlerFeatures(handler(withoutRro), logger)).toEqual({ recursiveReadOnlyMounts: false });
    expect(await handlerFeatures(handler(old), logger)).toEqual({ recursiveReadOnlyMounts: false });
    expect(await handlerFeatures(handler(join(dir, 'missing-runc')), logger)).toEqual({ recursiveReadOnlyMounts: false });
  });
});
