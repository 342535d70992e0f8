// A full disk found by any call (not only by the database) is RESOURCE_EXHAUSTED, with the ENOSPC
// that says so: Node's recursive mkdir reported the ENOENT of the directory asked for when its
// parent could not be made, and CreateContainer/RunPodSandbox on a fresh, full root answered
// UNKNOWN "ENOENT ... mkdir root/containers/<id>".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { makeDir } from '../../../internal/fs/make_dir';
import { kindOf } from '../../../internal/errdefs/errors';
import { toServiceError } from '../../../internal/errdefs/grpc';
import { mountTmpfs, unmountTmpfs } from '../../harness/tmpfs';

describe('a disk with no inode left', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-nospace-'));
    mountTmpfs(dir, '1m', 8);
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(dir, `f${i}`), '');
      } catch {
        break; // ENOSPC: no inode left
      }
    }
  });
  afterAll(() => {
    unmountTmpfs(dir);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a directory whose parent cannot be made fails with the parent's ENOSPC, answered RESOURCE_EXHAUSTED", async () => {
    // What Node's recursive mkdir says instead.
    await expect(mkdir(join(dir, 'containers', 'abc'), { recursive: true })).rejects.toMatchObject({ code: 'ENOENT' });
    const err = await makeDir(join(dir, 'containers', 'abc'), 0o700).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ENOSPC' });
    expect(kindOf(err)).toBe('ResourceExhausted');
    expect(toServiceError(err).code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
  });
});
