// The host's processes as /proc lists them, for the start-up and recovery sweeps that look for
// processes an earlier berthd left (wedged shims, CNI plugins).
import { readdirSync, readFileSync } from 'node:fs';

/** Every PID in /proc. */
export function processIds(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** /proc/<pid>/<file> as text, or undefined when the process is gone (or it is not readable). */
export function procFile(pid: number, file: 'cmdline' | 'environ' | 'stat'): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}
