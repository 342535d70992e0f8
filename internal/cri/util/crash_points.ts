// Test-only crash points (issue: restart recovery). BERTH_CRASH_AT, read once at start, names a
// point (e.g. "sandbox_run:after_netns"); berthd dies there with SIGKILL, as an OOM kill or power
// loss would take it, so tests can prove that a restart finishes or undoes the half-done work.
const target = process.env.BERTH_CRASH_AT ?? '';

export function crashPoint(name: string): void {
  if (target !== '' && target === name) {
    process.stderr.write(`berth: crash point ${name} reached, dying\n`);
    process.kill(process.pid, 'SIGKILL');
  }
}
