// The end of an e2e run's temp dir, for `make e2e` and `make e2e-cluster` alike: a failed run keeps
// its *.log files (kubelet, runtimes, control plane) under `logsDir`; the dir goes unless something
// is still mounted under it.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { mountPointsUnder } from '../bench/mounts';

/** Copies every *.log file under `runDir` to `dest`, keeping their paths. */
function keepLogs(runDir: string, dest: string): string {
  for (const entry of readdirSync(runDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.log')) continue;
    const from = join(entry.parentPath, entry.name);
    const to = join(dest, relative(runDir, from));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
  return dest;
}

/** Keeps the logs of a failed run in `logsDir`, then removes `runDir` unless still mounted; `log` says what it did. */
export function finishRunDir(runDir: string, failed: boolean, logsDir: string, log: (line: string) => void): void {
  if (failed) log(`logs of this run kept in ${keepLogs(runDir, logsDir)}`);
  const still = mountPointsUnder(runDir);
  if (still.length > 0) log(`kept ${runDir}: still mounted ${still.join(', ')}`);
  else rmSync(runDir, { recursive: true, force: true });
}
