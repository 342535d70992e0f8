// A process is alive until its parent could reap it: a main thread that has exited (a zombie in
// /proc/<pid>/stat) while another thread still runs is not the process gone. The bench's "SIGTERM ->
// old process gone" took such a moment for the end, a few ms before the rest of a daemon exited.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAlive, processRef, type ProcessRef } from './procs';

// The main thread exits alone (pthread_exit), leaving a thread that sleeps.
const MAIN_THREAD_EXITS = `
import ctypes, sys, threading, time
threading.Thread(target=lambda: time.sleep(3600)).start()
sys.stdout.write("ready\\n"); sys.stdout.flush()
ctypes.CDLL(None).pthread_exit(None)
`;

function stateOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
}

describe('isAlive', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  it('holds while a thread runs after the main thread has exited, and ends once the process exits', async () => {
    const started = spawn('python3', ['-c', MAIN_THREAD_EXITS], { stdio: ['ignore', 'pipe', 'inherit'] });
    child = started;
    const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
    await new Promise<void>((resolve) => started.stdout.once('data', () => resolve()));
    const ref = processRef(started.pid!) as ProcessRef;
    expect(ref).toBeDefined();
    // Wait for the main thread's exit (it follows "ready" at once), not for any duration.
    while (stateOf(ref.pid) !== 'Z') await new Promise((resolve) => setImmediate(resolve));
    expect(isAlive(ref)).toBe(true);
    expect(processRef(ref.pid)).toEqual(ref);

    started.kill('SIGKILL');
    await exited;
    expect(isAlive(ref)).toBe(false);
  });
});
