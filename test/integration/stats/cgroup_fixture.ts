// Real cgroups for the stats tests: a test-owned tree "/berth-test-<rand>" in the memory, cpuacct and
// pids hierarchies (v1) or in the unified one (v2), processes started by the test placed in it, and
// removal of exactly what was made (processes killed by PID first, cgroups children first).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostCgroupLayout } from '../../../internal/cri/stats/cgroup_layout';

/** The hierarchy directories a test cgroup is made in. */
function hostHierarchies(): string[] {
  const layout = hostCgroupLayout();
  if (layout.version === 2) return [layout.root];
  return ['memory', 'cpuacct', 'pids'].map((c) => layout.controllers.get(c)).filter((m): m is string => m !== undefined);
}

export class CgroupFixture {
  /** The tree's root, relative to each hierarchy, e.g. "/berth-test-1a2b3c". */
  readonly root = `/berth-test-${randomBytes(4).toString('hex')}`;
  private readonly made: string[] = [];
  private readonly children: ChildProcess[] = [];

  /** `hierarchies`: the hierarchy mountpoints to use instead of the host's (memory, cpuacct, pids). */
  constructor(private readonly hierarchies: () => string[] = hostHierarchies) {}

  /** Creates `<root>/<rel>` (and its parents) in every hierarchy; returns the cgroup path. */
  create(rel = ''): string {
    const path = rel === '' ? this.root : `${this.root}/${rel}`;
    const parts = path.split('/').filter((p) => p !== '');
    for (let i = 1; i <= parts.length; i++) {
      const sub = `/${parts.slice(0, i).join('/')}`;
      if (this.made.includes(sub)) continue;
      for (const h of this.hierarchies()) mkdirSync(join(h, sub));
      this.made.push(sub);
    }
    return path;
  }

  /** Writes a controller file of the cgroup in whichever hierarchy has it (v1: `controller`). */
  write(cgroupPath: string, controller: string, file: string, value: string): void {
    const layout = hostCgroupLayout();
    const mount = layout.version === 2 ? layout.root : layout.controllers.get(controller)!;
    writeFileSync(join(mount, cgroupPath, file), value);
  }

  /**
   * Starts `argv` inside `cgroupPath`: a shell moves itself into the cgroup in every hierarchy, says
   * "moved", then execs the command, so everything the command touches is charged to the cgroup.
   * Resolves once the output shows `marker` ("moved" by default; a command may print its own).
   */
  async run(cgroupPath: string, argv: string[], marker = 'moved'): Promise<ChildProcess> {
    const moves = this.hierarchies()
      .map((h) => `echo $$ > '${join(h, cgroupPath, 'cgroup.procs')}'`)
      .join(' && ');
    const child = spawn('sh', ['-c', `${moves} && echo moved && exec "$@"`, 'sh', ...argv], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.children.push(child);
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const onExit = (code: number | null): void => reject(new Error(`${argv.join(' ')} exited (${code}) before "${marker}"`));
      child.once('error', reject);
      child.once('exit', onExit);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes(marker)) {
          child.off('exit', onExit);
          resolve();
        }
      });
    });
    return child;
  }

  /** A `sleep` in the cgroup. */
  sleep(cgroupPath: string): Promise<ChildProcess> {
    return this.run(cgroupPath, ['sleep', '1000']);
  }

  /** Kills the processes this fixture started (by PID) and waits for them to go. */
  async killAll(): Promise<void> {
    await Promise.all(
      this.children.splice(0).map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
  }

  /** Kills the processes, then removes the cgroups made, deepest first. */
  async destroy(): Promise<void> {
    await this.killAll();
    for (const path of this.made.splice(0).reverse()) {
      for (const h of this.hierarchies()) {
        try {
          rmdirSync(join(h, path));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
    }
  }
}
