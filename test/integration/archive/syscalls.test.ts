// How many system calls applyLayer makes per small file, counted by strace on the thread that
// makes them (the calling one: entries are written synchronously): on filesystems slow at
// metadata, that number is what an unpack costs. A root-owned file created by root under the
// usual umask needs creating, its data written, its times set and closing; a chown or chmod to
// the values it already has is skipped.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLayer } from '../../../internal/archive';
import { buildTar, streamOf, type TarEntry } from './tarball';

const DIRS = 20;
const FILES_PER_DIR = 100;
const FILES = DIRS * FILES_PER_DIR;
/** open, write, set times, close; and a little for each directory. */
const MAX_CALLS_PER_FILE = 5;
/** As zlib's default output chunks: some files straddle two. */
const CHUNK_BYTES = 16 * 1024;

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-archive-syscalls-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function smallFilesLayer(): TarEntry[] {
  const entries: TarEntry[] = [];
  for (let d = 0; d < DIRS; d++) {
    entries.push({ name: `d${d}/`, type: 'directory' });
    for (let f = 0; f < FILES_PER_DIR; f++) {
      entries.push({ name: `d${d}/f${f}`, data: Buffer.alloc(100 + ((d * 131 + f * 977) % 1900), 'x'), mode: f % 10 === 0 ? 0o755 : 0o644 });
    }
  }
  return entries;
}

/** System calls of this process's main thread while `work` runs (strace -c attached to it). */
async function mainThreadCalls(work: () => Promise<void>): Promise<number> {
  const out = join(scratch, `strace-${Date.now()}.txt`);
  // Without -f strace follows only the thread it attaches to: this one, which writes the entries.
  const strace = spawn('strace', ['-c', '-p', String(process.pid), '-o', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = once(strace, 'exit');
  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    strace.once('error', (err) => reject(new Error(`strace is needed for this test (apt-get install strace): ${err.message}`)));
    strace.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/attached/.test(stderr)) resolve();
    });
    strace.once('exit', (code) => reject(new Error(`strace exited ${code}: ${stderr}`)));
  });
  try {
    await work();
  } finally {
    strace.kill('SIGINT');
    await exited;
  }
  const total = readFileSync(out, 'utf8')
    .split('\n')
    .find((line) => /\stotal$/.test(line));
  const calls = Number(total?.trim().split(/\s+/)[3]);
  if (!Number.isInteger(calls)) throw new Error(`no total in strace's summary:\n${readFileSync(out, 'utf8')}`);
  return calls;
}

async function applyCounted(name: string, entries: TarEntry[]): Promise<number> {
  const tarball = await buildTar(entries);
  const target = join(scratch, name);
  mkdirSync(target);
  return mainThreadCalls(async () => void (await applyLayer(target, streamOf(tarball, CHUNK_BYTES))));
}

describe('applyLayer system calls', () => {
  it(`makes at most ${MAX_CALLS_PER_FILE} per small root-owned file, chown and chmod only where they change something`, async () => {
    const base = await applyCounted('base', [{ name: 'd/', type: 'directory' }]);
    const entries = smallFilesLayer();
    const calls = await applyCounted('files', entries);
    const perFile = (calls - base) / FILES;
    expect(perFile).toBeLessThanOrEqual(MAX_CALLS_PER_FILE);

    // And the files are as the layer says.
    const file = lstatSync(join(scratch, 'files', 'd7', 'f30'));
    expect([file.uid, file.gid, file.mode & 0o7777, file.size]).toEqual([0, 0, 0o755, 100 + ((7 * 131 + 30 * 977) % 1900)]);
    expect(lstatSync(join(scratch, 'files', 'd19', 'f99')).mode & 0o7777).toBe(0o644);
  });
});
