// Helpers for the CRI image suites: run berthctl against a daemon, and look at what a berthd left
// on disk (blobs, snapshot rows and directories) the way an operator would.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../../internal/api/cri';
import { readDaemonDb } from '../../harness/daemon_db';

const execFileP = promisify(execFile);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function berthctl(socket: string, ...args: string[]): Promise<CommandResult> {
  const main = join(repoRoot(), 'dist', 'cmd', 'berthctl', 'main.js');
  try {
    const { stdout, stderr } = await execFileP(process.execPath, [main, '--address', socket, ...args]);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Digests of the blobs in a berthd root's content store. */
export function blobsOnDisk(root: string): string[] {
  const dir = join(root, 'content', 'blobs', 'sha256');
  return existsSync(dir) ? readdirSync(dir).map((hex) => `sha256:${hex}`).sort() : [];
}

export interface SnapshotRow {
  key: string;
  id: number;
  kind: string;
  parent: string | null;
}

/** The snapshot rows of a berthd root's metadata DB (a copy, alongside the running daemon). */
export function snapshotRows(root: string): SnapshotRow[] {
  return readDaemonDb(root, (db) => db.prepare('SELECT key, id, kind, parent FROM snapshots ORDER BY id').all() as SnapshotRow[]);
}

/** Numbered snapshot directories under <root>/overlayfs/snapshots. */
export function snapshotDirs(root: string): number[] {
  const dir = join(root, 'overlayfs', 'snapshots');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => /^\d+$/.test(n))
        .map(Number)
        .sort((a, b) => a - b)
    : [];
}

/** Committed snapshot names, sorted. */
export function committedSnapshots(root: string): string[] {
  return snapshotRows(root)
    .filter((r) => r.kind === 'committed')
    .map((r) => r.key)
    .sort();
}
