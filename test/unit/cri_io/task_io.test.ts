// TaskIO's FIFOs on the host: a directory of the process's own goes with remove(); in a directory
// shared by a container's exec processes only the process's own FIFOs go, and a failed create
// leaves the others' alone.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskIO } from '../../../internal/cio/task_io';

describe('TaskIO', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'berth-task-io-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('removes a directory of its own with its FIFOs', () => {
    const dir = join(base, 'io');
    const io = TaskIO.create(dir, 'c1', { stdin: true });
    expect(readdirSync(dir).sort()).toEqual(['c1-stderr', 'c1-stdin', 'c1-stdout']);
    io.remove();
    expect(existsSync(dir)).toBe(false);
  });

  it('in a shared directory removes only its own FIFOs and leaves the directory', () => {
    const dir = join(base, 'exec');
    const first = TaskIO.create(dir, 'e1', { stdout: true, stderr: true, sharedDir: true });
    const second = TaskIO.create(dir, 'e2', { stdout: true, stderr: true, sharedDir: true });
    first.remove();
    expect(readdirSync(dir).sort()).toEqual(['e2-stderr', 'e2-stdout']);
    first.remove(); // twice is fine
    second.remove();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('makes a shared directory and the parents it lacks, and a directory of its own under a missing parent', () => {
    const shared = join(base, 'c/exec');
    TaskIO.create(shared, 'e1', { stdout: true, stderr: true, sharedDir: true }).remove();
    expect(readdirSync(shared)).toEqual([]);
    const own = join(base, 'p/io');
    const io = TaskIO.create(own, 'c1', { stdout: true });
    expect(readdirSync(own).sort()).toEqual(['c1-stderr', 'c1-stdout']);
    io.remove();
    expect(existsSync(own)).toBe(false);
  });

  it("undoes a failed create in a shared directory without touching the others' FIFOs", () => {
    const dir = join(base, 'exec');
    const kept = TaskIO.create(dir, 'e1', { stdout: true, stderr: true, sharedDir: true });
    // A FIFO by the stderr name already there: stdout is made, then stderr fails (EEXIST).
    const clash = TaskIO.create(dir, 'e2', { stdout: false, stderr: true, sharedDir: true });
    expect(() => TaskIO.create(dir, 'e2', { stdout: true, stderr: true, sharedDir: true })).toThrow(/File exists/);
    expect(readdirSync(dir).sort()).toEqual(['e1-stderr', 'e1-stdout', 'e2-stderr']);
    clash.remove();
    kept.remove();
    expect(readdirSync(dir)).toEqual([]);
  });
});
