// Network namespaces the bench can attribute to itself: the netns path each daemon reported for
// the bench's pods (verbose PodSandboxStatus). Removed via CRI normally; this sweeps leftovers.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

export class NetnsLedger {
  private readonly paths = new Set<string>();

  record(path: string | undefined): void {
    if (path) this.paths.add(path);
  }

  /** Unmounts and removes every recorded netns file still present; returns how many. */
  sweep(): number {
    let removed = 0;
    for (const path of this.paths) {
      if (!existsSync(path)) continue;
      try {
        execFileSync('umount', [path], { stdio: 'ignore' });
      } catch {
        // not a mount point any more
      }
      rmSync(path, { force: true });
      removed++;
    }
    this.paths.clear();
    return removed;
  }
}

/** The netns path in a verbose PodSandboxStatus info map (containerd: info.netNamespacePath or the runtime spec). */
export function netnsPathFromInfo(info: Record<string, string>): string | undefined {
  for (const text of Object.values(info)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    const found = findNetnsPath(parsed, 0);
    if (found) return found;
  }
  return undefined;
}

function findNetnsPath(value: unknown, depth: number): string | undefined {
  if (depth > 6 || value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.netNamespacePath === 'string' && record.netNamespacePath !== '') return record.netNamespacePath;
  if (record.type === 'network' && typeof record.path === 'string' && record.path !== '') return record.path;
  for (const child of Object.values(record)) {
    const found = findNetnsPath(child, depth + 1);
    if (found) return found;
  }
  return undefined;
}
