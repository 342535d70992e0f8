// Running a helper binary to completion through posix_spawn (spawn.c): what CNI plugins and the
// shim's start/delete subcommands need, without the fork() cost that child_process pays in
// proportion to berthd's resident memory.
import { constants } from 'node:os';
import { loadAddon } from './addon';

interface SpawnAddon {
  runProcess(file: string, argv: string[], env: string[], cwd: string | null, stdin: Buffer, timeoutMs: number): Promise<RawResult>;
}

interface RawResult {
  code: number | null;
  signal: number | null;
  timedOut: boolean;
  truncated: boolean;
  stdout: Buffer;
  stderr: Buffer;
}

export interface RunProcessOptions {
  /** An absolute path: no PATH search. */
  file: string;
  /** Arguments after argv[0] (which is `file`). */
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  stdin?: Buffer | string;
  /** The child is killed (SIGKILL) when it has not exited and closed its output by then. */
  timeoutMs: number;
}

export interface ProcessResult {
  /** Exit status, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** stdout or stderr went past 16 MiB; the rest was read and dropped. */
  truncated: boolean;
  stdout: Buffer;
  stderr: Buffer;
}

const signalNames = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, num]) => [num, name as NodeJS.Signals]),
);

let inherited: Readonly<NodeJS.ProcessEnv> | undefined;

/**
 * berthd's own environment, for the children it runs to inherit: a plain copy made at the first
 * call. berthd changes its environment only while starting, before any child (extra_ca.ts,
 * systemd/notifier.ts). Spreading process.env itself asks the C++ side for every variable at each
 * child (~30 us here, three children per pod start).
 */
export function daemonEnv(): Readonly<NodeJS.ProcessEnv> {
  inherited ??= Object.freeze({ ...process.env });
  return inherited;
}

function envList(env: NodeJS.ProcessEnv): string[] {
  const list: string[] = [];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) list.push(`${key}=${value}`);
  return list;
}

/**
 * Runs `file` with stdin fed from `stdin` and collects stdout and stderr until the child exits and
 * both pipes close, or the timeout passes. Rejects (with errno `code`, e.g. ENOENT) only when the
 * child could not be started.
 */
export async function runProcess(opts: RunProcessOptions): Promise<ProcessResult> {
  const stdin = typeof opts.stdin === 'string' ? Buffer.from(opts.stdin) : (opts.stdin ?? Buffer.alloc(0));
  const raw = await loadAddon<SpawnAddon>().runProcess(
    opts.file,
    [opts.file, ...opts.args],
    envList(opts.env),
    opts.cwd ?? null,
    stdin,
    Math.max(1, Math.ceil(opts.timeoutMs)),
  );
  return {
    code: raw.code,
    signal: raw.signal === null ? null : (signalNames.get(raw.signal) ?? null),
    timedOut: raw.timedOut,
    truncated: raw.truncated,
    stdout: raw.stdout,
    stderr: raw.stderr,
  };
}
