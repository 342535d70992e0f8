// The load floor of the restart rows: how long `bin/berthd --help` takes from exec to its usage
// text, i.e. Node starting with bin/berthd's flags and environment and loading every module berthd
// loads (the bundle, with its code cache), with nothing of berthd's work run (no database, no
// recovery, no server). Shown beside "exec to serving", as the Node floor is beside the RSS rows.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../internal/api/cri';
import { berthdNodeEnv, stderrTail } from './floor_process';
import { msSince, p50 } from './stats';

const SAMPLES = 5;
const TIMEOUT_MS = 30_000;

/** One `bin/berthd --help`: ms from spawn to the first output; the process is ours and left to exit. */
function sampleOnce(): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn(join(repoRoot(), 'bin', 'berthd'), ['--help'], { stdio: ['ignore', 'pipe', 'pipe'], env: berthdNodeEnv() });
  const stderr = stderrTail(child);
  return new Promise<number>((resolve, reject) => {
    let ms: number | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.once('data', () => (ms = msSince(start)));
    child.stdout.resume();
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`bin/berthd --help: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && ms !== undefined) resolve(ms);
      else reject(new Error(`bin/berthd --help exited ${code ?? signal}${ms === undefined ? ' without output' : ''}: ${stderr()}`));
    });
  });
}

/** The load floor in ms: the median of a few runs, one after another. */
export async function loadFloorMs(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push(await sampleOnce());
  return p50(samples);
}
