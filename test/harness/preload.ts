// bin/berthd's preload (internal/sys/preload, built by `make build`) and a way to run a program
// with it, or with no LD_PRELOAD at all, for the tests of what it does.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../internal/repo_root';

export const PRELOAD = join(repoRoot(), 'build', 'Release', 'berth_preload.so');

/** Runs `cmd` to completion with LD_PRELOAD set to `preload` (unset when undefined); its stdout. */
export function runPreloaded(cmd: string, args: string[], preload: string | undefined): string {
  const env = { ...process.env };
  delete env.LD_PRELOAD;
  if (preload !== undefined) env.LD_PRELOAD = preload;
  const res = spawnSync(cmd, args, { env, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`${cmd} exited ${res.status}: ${res.stderr}`);
  return res.stdout;
}
