// What the bench's floor processes (node_floor.ts, grpc_floor.ts, load_floor.ts) share: Node run
// as bin/berthd runs it (its `#!` line's flags, its environment), the compiled floor scripts, and
// the tail of a child's stderr for the error when one fails. Not its LD_PRELOAD (start-up prefault
// and compact mmap placement, internal/sys/preload): that is berth's own choice, so what it costs (a
// larger malloc heap) or saves shows in berthd's share above a floor. load_floor.ts runs bin/berthd itself.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../internal/api/cri';

/** The Node flags on bin/berthd's `#!/usr/bin/env -S node FLAGS` line (none if it has no such line). */
export function berthdNodeFlags(): string[] {
  let first = '';
  try {
    first = readFileSync(join(repoRoot(), 'bin', 'berthd'), 'utf8').split('\n')[0] ?? '';
  } catch {
    return [];
  }
  const words = first.replace(/^#!\S*\s*(-S\s+)?/, '').split(/\s+/).filter((w) => w !== '');
  const node = words.findIndex((w) => w === 'node' || w.endsWith('/node'));
  return node < 0 ? [] : words.slice(node + 1).filter((w) => w.startsWith('-'));
}

/** This process's environment as bin/berthd hands it to Node: without NODE_EXTRA_CA_CERTS (hack/bundle/launcher.ts). */
export function berthdNodeEnv(): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _deferred, ...env } = process.env;
  return env;
}

/**
 * Runs the compiled bench script `name` (dist/test/bench/<name>.js, also when the bench's own code
 * runs from TypeScript under jest) in Node with bin/berthd's flags and environment.
 */
export function spawnFloorScript(name: string, args: readonly string[], stdio: StdioOptions, ipc = false): ChildProcess {
  const script = join(repoRoot(), 'dist', 'test', 'bench', `${name}.js`);
  return spawn(process.execPath, [...berthdNodeFlags(), script, ...args], {
    stdio,
    env: berthdNodeEnv(),
    ...(ipc ? { serialization: 'advanced' as const } : {}),
  });
}

/** The last 2000 characters `child` wrote to stderr (piped), read when asked. */
export function stderrTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.on('data', (d: Buffer) => void (tail = (tail + d.toString()).slice(-2000)));
  return () => tail.trim();
}
