// The Node floor of the memory rows: the RSS of a bare Node process, run with bin/berthd's Node flags
// and environment, that loads the third-party packages and native addon berthd has loaded when it
// serves, and none of berth's own code, so the table shows which part of berthd's RSS is berth's own.
// FLOOR_MODULES is what an idle berthd held in require.cache (checked with a --require hook
// listing it on 2026-12-01: @grpc/proto-loader is not among them, berthd reads its proto roots
// from JSON descriptors through protobufjs); keep it in step with berthd's imports.
import { join } from 'node:path';
import { repoRoot } from '../../internal/api/cri';
import { spawnFloorScript, stderrTail } from './floor_process';
import { rssKiB } from './procs';
import { p50 } from './stats';

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
/** Idle time before reading RSS, as the daemons have idled before theirs is read. */
const SETTLE_MS = 2_000;
const SAMPLES = 3;

/** One floor process: spawned, read once it is ready and has idled, killed (it is our own child). */
function sampleOnce(): Promise<number> {
  const addon = join(repoRoot(), 'build', 'Release', 'berth_sys.node');
  const child = spawnFloorScript('node_floor_child', [addon, ...FLOOR_MODULES], ['ignore', 'pipe', 'pipe']);
  const stderr = stderrTail(child);
  return new Promise<number>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`node floor: ${why}${stderr() ? `: ${stderr()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`not ready after ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    child.once('error', (err) => fail(err.message));
    child.once('exit', (code, signal) => fail(`exited ${code ?? signal} before it was measured`));
    child.stdout!.once('data', () => {
      clearTimeout(timer);
      setTimeout(() => {
        const kib = rssKiB(child.pid!);
        child.removeAllListeners('exit');
        child.kill('SIGKILL');
        if (kib === undefined) reject(new Error('node floor: process gone before it was measured'));
        else resolve(kib / 1024);
      }, SETTLE_MS);
    });
  });
}

/** The floor's RSS in MiB, the median of a few processes. */
export async function nodeFloorMiB(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push(await sampleOnce());
  return p50(samples);
}
