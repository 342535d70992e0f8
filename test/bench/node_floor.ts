// The Node floor of the memory and stop rows: a bare Node process, run with bin/berthd's Node flags
// and environment, that loads the third-party packages and native addon berthd has loaded when it
// serves, and none of berth's own code, so the table shows which part of berthd's RSS, and of its
// time from SIGTERM to gone, is berth's own. The stop is timed as the bench times a daemon's (the
// signal to the child's exit event); the floor leaves with process.exit(0), as berthd does after
// its stop, so what is left is Node's own exit and the kernel freeing the process.
// FLOOR_MODULES is what an idle berthd held in require.cache (checked with a --require hook
// listing it on 2026-12-01: @grpc/proto-loader is not among them, berthd reads its proto roots
// from JSON descriptors through protobufjs); keep it in step with berthd's imports.
import { join } from 'node:path';
import { repoRoot } from '../../internal/api/cri';
import { spawnFloorScript, stderrTail } from './floor_process';
import { rssKiB } from './procs';
import { msSince, p50 } from './stats';

export const FLOOR_MODULES = [
  '@grpc/grpc-js',
  'protobufjs',
  'better-sqlite3',
  'zod/v3',
  'tar-stream',
  'smol-toml',
  'hpack.js',
  'spdy-transport/lib/spdy-transport/protocol/spdy/dictionary',
];

const READY_TIMEOUT_MS = 30_000;
const EXIT_TIMEOUT_MS = 10_000;
/** Idle time before reading RSS, as the daemons have idled before theirs is read. */
const SETTLE_MS = 2_000;
const SAMPLES = 3;

export interface NodeFloor {
  /** RSS once ready and idle. */
  rssMiB: number;
  /** From SIGTERM until the process was gone. */
  stopMs: number;
}

/** One floor process: spawned, read once it is ready and has idled, then stopped with SIGTERM and timed. */
function sampleOnce(): Promise<NodeFloor> {
  const addon = join(repoRoot(), 'build', 'Release', 'berth_sys.node');
  const child = spawnFloorScript('node_floor_child', [addon, ...FLOOR_MODULES], ['ignore', 'pipe', 'pipe']);
  const stderr = stderrTail(child);
  return new Promise<NodeFloor>((resolve, reject) => {
    let timer: NodeJS.Timeout;
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`node floor: ${why}${stderr() ? `: ${stderr()}` : ''}`));
    };
    const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null) => fail(`exited ${code ?? signal} before it was measured`);
    timer = setTimeout(() => fail(`not ready after ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    child.once('error', (err) => fail(err.message));
    child.once('exit', onEarlyExit);
    child.stdout!.once('data', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const kib = rssKiB(child.pid!);
        if (kib === undefined) return fail('process gone before it was measured');
        child.off('exit', onEarlyExit);
        const start = process.hrtime.bigint();
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          const stopMs = msSince(start);
          if (code === 0) resolve({ rssMiB: kib / 1024, stopMs });
          else reject(new Error(`node floor: exited ${code ?? signal} on SIGTERM${stderr() ? `: ${stderr()}` : ''}`));
        });
        timer = setTimeout(() => fail(`still running ${EXIT_TIMEOUT_MS} ms after SIGTERM`), EXIT_TIMEOUT_MS);
        child.kill('SIGTERM');
      }, SETTLE_MS);
    });
  });
}

/** The floor's RSS in MiB and its SIGTERM-to-gone time in ms, each the median of `samples` processes. */
export async function nodeFloor(samples = SAMPLES): Promise<NodeFloor> {
  const taken: NodeFloor[] = [];
  for (let i = 0; i < samples; i++) taken.push(await sampleOnce());
  return { rssMiB: p50(taken.map((t) => t.rssMiB)), stopMs: p50(taken.map((t) => t.stopMs)) };
}
