// removeUnfinishedCreate on the real kernel: it removes an interrupted create's empty cgroups and a
// runc state dir holding only exec.fifo, and never a cgroup with a process in it or a state dir
// runc finished (state.json).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostCgroupLayout } from '../../../internal/cri/stats/cgroup_layout';
import { removeUnfinishedCreate } from '../../../internal/cri/tasks/unfinished_create';
import { mkfifo } from '../../../internal/sys/fs';

const layout = hostCgroupLayout();
const hierarchies = layout.version === 2 ? [layout.root] : layout.hierarchies;

describe('removeUnfinishedCreate', () => {
  const parent = `/berth-ufc-${randomBytes(4).toString('hex')}`;
  let runcRoot: string;
  beforeEach(() => {
    runcRoot = mkdtempSync(join(tmpdir(), 'berth-runc-root-'));
  });
  afterEach(() => {
    rmSync(runcRoot, { recursive: true, force: true });
    for (const h of hierarchies) {
      for (const leaf of ['a', 'b']) if (existsSync(join(h, parent, leaf))) rmdirSync(join(h, parent, leaf));
      if (existsSync(join(h, parent))) rmdirSync(join(h, parent));
    }
  });

  function leftovers(id: string, withState: boolean): { cgroups: string[]; state: string } {
    const cgroups = hierarchies.map((h) => join(h, parent, id));
    for (const dir of cgroups) mkdirSync(dir, { recursive: true });
    const state = join(runcRoot, 'k8s.io', id);
    mkdirSync(state, { recursive: true });
    mkfifo(join(state, 'exec.fifo'), 0o622);
    if (withState) writeFileSync(join(state, 'state.json'), '{}');
    return { cgroups, state };
  }

  it('removes the empty cgroups and the exec.fifo-only state dir', () => {
    const { cgroups, state } = leftovers('a', false);
    const removed = removeUnfinishedCreate({ id: 'a', namespace: 'k8s.io', runcRoot, cgroupsPath: `${parent}/a`, systemdCgroup: false });
    expect(removed.sort()).toEqual([...cgroups, state].sort());
    expect([...cgroups, state].filter((p) => existsSync(p))).toEqual([]);
  });

  it('keeps a cgroup that holds a process, and then the state dir a running runc may still need', async () => {
    const { cgroups, state } = leftovers('b', false);
    const busy = layout.version === 2 ? cgroups[0]! : cgroups.find((c) => c.startsWith(layout.controllers.get('pids') ?? '\0'))!;
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      writeFileSync(join(busy, 'cgroup.procs'), String(sleeper.pid));
      const removed = removeUnfinishedCreate({ id: 'b', namespace: 'k8s.io', runcRoot, cgroupsPath: `${parent}/b`, systemdCgroup: false });
      expect(removed).not.toContain(busy);
      expect(removed).not.toContain(state);
      expect(existsSync(busy)).toBe(true);
      expect(existsSync(join(state, 'exec.fifo'))).toBe(true);
    } finally {
      const exited = new Promise((resolve) => sleeper.once('exit', resolve));
      sleeper.kill('SIGKILL'); // only the process this test started
      await exited;
    }
  });

  it('keeps a state dir runc finished (state.json)', () => {
    const { cgroups, state } = leftovers('a', true);
    const removed = removeUnfinishedCreate({ id: 'a', namespace: 'k8s.io', runcRoot, cgroupsPath: `${parent}/a`, systemdCgroup: false });
    expect(removed.sort()).toEqual([...cgroups].sort());
    expect(existsSync(join(state, 'state.json'))).toBe(true);
  });
});
