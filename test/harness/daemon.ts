// Runs a real berthd (dist/cmd/berthd/main.js) for tests: its own temp dir holding root, state,
// socket and config; waits until the socket answers Version; stop() sends SIGTERM to that one PID
// and awaits its exit. The Makefile compiles before jest runs, so dist/ must exist.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../internal/api/cri';
import { criClient } from './cri_client';

export interface BerthdOptions {
  /** berth.toml text; root, state and address are given as flags, so leave them out. */
  configToml?: string;
  env?: NodeJS.ProcessEnv;
  /** Run in this directory (not removed by stop); default: a fresh mkdtemp, removed by stop. */
  dir?: string;
  /** Socket path; default <dir>/berth.sock. */
  socket?: string;
  /** Extra flags after the harness's own. */
  args?: string[];
  logLevel?: string;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningBerthd {
  pid: number;
  dir: string;
  root: string;
  state: string;
  socket: string;
  configPath: string;
  /** Everything berthd wrote to stderr so far (JSON-lines logs). */
  stderr(): string;
  /** Resolves when the process exits. */
  exited: Promise<ExitStatus>;
  /** SIGTERM, await exit, remove the temp dir if the harness made it. */
  stop(): Promise<ExitStatus>;
  /** SIGKILL (a crash), await exit; leaves every file in place. */
  kill(): Promise<ExitStatus>;
  /** Closes the harness's end of berthd's stderr pipe, as a supervisor that went away does. */
  closeStderr(): void;
}

/** dist/cmd/berthd/main.js, or a clear error telling how to get it. */
export function berthdMain(): string {
  const main = join(repoRoot(), 'dist', 'cmd', 'berthd', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run make build first`);
  return main;
}

interface Layout {
  dir: string;
  root: string;
  state: string;
  socket: string;
  configPath: string;
  owned: boolean;
  /** dist/cmd/berthd/main.js, found before the temp dir is made: a missing build leaves no dir behind. */
  main: string;
}

function layout(opts: BerthdOptions): Layout {
  const main = berthdMain();
  const owned = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'berthd-'));
  return {
    dir,
    root: join(dir, 'root'),
    state: join(dir, 'state'),
    socket: opts.socket ?? join(dir, 'berth.sock'),
    configPath: join(dir, 'berth.toml'),
    owned,
    main,
  };
}

function spawnBerthd(l: Layout, opts: BerthdOptions): ChildProcess {
  writeFileSync(l.configPath, opts.configToml ?? '');
  const args = [
    l.main,
    '--config', l.configPath,
    '--root', l.root,
    '--state', l.state,
    '--address', l.socket,
    '--log-level', opts.logLevel ?? 'debug',
    ...(opts.args ?? []),
  ];
  return spawn(process.execPath, args, { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function exitOf(child: ChildProcess): Promise<ExitStatus> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

async function waitForVersion(socket: string, exited: Promise<ExitStatus>, stderr: () => string): Promise<void> {
  let gone: ExitStatus | undefined;
  void exited.then((s) => (gone = s));
  const giveUp = Date.now() + 30_000;
  for (;;) {
    if (gone) throw new Error(`berthd exited (${JSON.stringify(gone)}) before serving:\n${stderr()}`);
    if (existsSync(socket)) {
      const c = criClient(socket);
      try {
        await c.runtime.Version({}, { deadline: Date.now() + 2000 });
        return;
      } catch {
        // not serving yet
      } finally {
        c.close();
      }
    }
    if (Date.now() > giveUp) throw new Error(`berthd did not answer on ${socket}:\n${stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts berthd and resolves once it answers Version on its socket. */
export async function startBerthd(opts: BerthdOptions = {}): Promise<RunningBerthd> {
  const l = layout(opts);
  const child = spawnBerthd(l, opts);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout!.resume();
  const exited = exitOf(child);
  const stderr = () => err;
  const removeDir = () => {
    if (l.owned) rmSync(l.dir, { recursive: true, force: true });
  };
  try {
    await waitForVersion(l.socket, exited, stderr);
  } catch (e) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    removeDir();
    throw e;
  }
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, sig);
    return exited;
  };
  return {
    pid: child.pid!,
    dir: l.dir,
    root: l.root,
    state: l.state,
    socket: l.socket,
    configPath: l.configPath,
    stderr,
    exited,
    stop: async () => {
      const status = await signal('SIGTERM');
      removeDir();
      return status;
    },
    kill: () => signal('SIGKILL'),
    closeStderr: () => child.stderr!.destroy(),
  };
}

export interface BerthdRun extends ExitStatus {
  stdout: string;
  stderr: string;
}

/**
 * Runs berthd expecting it to exit by itself (a refused config, a socket already served); kills it
 * if it is still running after `timeoutMs`. Uses opts.dir (or a temp dir it removes afterwards).
 */
export async function runBerthdToExit(opts: BerthdOptions = {}, timeoutMs = 30_000): Promise<BerthdRun> {
  const l = layout(opts);
  try {
    const child = spawnBerthd(l, opts);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    // 'close', not 'exit': the output is complete only once the pipes are drained.
    const status = await new Promise<ExitStatus>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    clearTimeout(timer);
    return { ...status, stdout, stderr };
  } finally {
    if (l.owned) rmSync(l.dir, { recursive: true, force: true });
  }
}
