// kubectl as a user runs it, against the run's kubeconfig: one-shot commands (with stdin, bounded
// output, a timeout that ends the process by PID) and long-running ones (logs -f, port-forward,
// attach) whose output is watched until a pattern shows, then ended by PID.
import { spawn, type ChildProcess } from 'node:child_process';

/** Bound on what one kubectl invocation's stdout/stderr may hold in memory. */
const MAX_OUTPUT_BYTES = 16 << 20;

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export class KubectlError extends Error {
  constructor(readonly args: string[], readonly result: KubectlResult) {
    super(`kubectl ${args.join(' ')}: exit ${result.code}: ${(result.stderr || result.stdout).trim().slice(0, 800)}`);
  }
}

/** A running kubectl whose output is collected as it comes. */
export class KubectlStream {
  private out = '';
  private err = '';
  private exitCode: number | null | undefined;
  private readonly exited: Promise<void>;

  constructor(readonly args: string[], readonly child: ChildProcess) {
    const keep = (prev: string, chunk: Buffer) => (prev.length + chunk.length > MAX_OUTPUT_BYTES ? prev : prev + chunk.toString('utf8'));
    child.stdout?.on('data', (c: Buffer) => (this.out = keep(this.out, c)));
    child.stderr?.on('data', (c: Buffer) => (this.err = keep(this.err, c)));
    child.stdin?.on('error', () => undefined); // kubectl may exit before reading what we wrote
    this.exited = new Promise((resolve) => {
      child.on('error', (e) => {
        this.err += String(e);
        this.exitCode = null;
        resolve();
      });
      child.on('close', (code) => {
        this.exitCode = code;
        resolve();
      });
    });
  }

  get stdout(): string {
    return this.out;
  }

  get stderr(): string {
    return this.err;
  }

  write(data: string): void {
    this.child.stdin?.write(data);
  }

  /** Resolves with the first match of `pattern` in stdout; throws if kubectl exits or `timeoutMs` passes first. */
  async waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
    const giveUp = Date.now() + timeoutMs;
    for (;;) {
      const m = pattern.exec(this.out);
      if (m) return m;
      if (this.exitCode !== undefined) throw new Error(`kubectl ${this.args.join(' ')} exited (${this.exitCode}) before printing ${pattern}: ${this.describe()}`);
      if (Date.now() > giveUp) throw new Error(`kubectl ${this.args.join(' ')}: no ${pattern} within ${timeoutMs / 1000} s: ${this.describe()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Waits for the exit (ending it by PID after `timeoutMs`). */
  async result(timeoutMs = 120_000): Promise<KubectlResult> {
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
    return { code: this.exitCode ?? null, stdout: this.out, stderr: this.err };
  }

  /** Ends it by PID (SIGTERM, then SIGKILL) and waits for it. */
  async stop(): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(timer);
  }

  private describe(): string {
    return `stdout ${JSON.stringify(this.out.slice(-500))}, stderr ${JSON.stringify(this.err.slice(-500))}`;
  }
}

export class Kubectl {
  constructor(
    readonly binary: string,
    readonly kubeconfig: string,
    readonly namespace?: string,
    /** Streams still running (shared by every namespace's Kubectl), ended by the runner after each check. */
    readonly running = new Set<KubectlStream>(),
  ) {}

  /** The same kubectl, its commands in namespace `ns`. */
  inNamespace(ns: string): Kubectl {
    return new Kubectl(this.binary, this.kubeconfig, ns, this.running);
  }

  start(args: string[]): KubectlStream {
    const full = [`--kubeconfig=${this.kubeconfig}`, ...(this.namespace ? [`--namespace=${this.namespace}`] : []), ...args];
    const child = spawn(this.binary, full, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stream = new KubectlStream(args, child);
    this.running.add(stream);
    child.on('close', () => this.running.delete(stream));
    return stream;
  }

  /** Runs to completion; throws KubectlError on a non-zero exit unless `allowFailure`. */
  async run(args: string[], opts: { stdin?: string | Buffer; timeoutMs?: number; allowFailure?: boolean } = {}): Promise<KubectlResult> {
    const stream = this.start(args);
    if (opts.stdin !== undefined) stream.child.stdin?.write(opts.stdin);
    stream.child.stdin?.end();
    const result = await stream.result(opts.timeoutMs ?? 180_000);
    if (result.code !== 0 && !opts.allowFailure) throw new KubectlError(args, result);
    return result;
  }

  async out(args: string[], opts: { stdin?: string | Buffer; timeoutMs?: number } = {}): Promise<string> {
    return (await this.run(args, opts)).stdout;
  }

  async json<T>(args: string[]): Promise<T> {
    return JSON.parse(await this.out([...args, '-o', 'json'])) as T;
  }

  /** `kubectl apply -f -` of objects given as JS values. */
  async apply(...objects: object[]): Promise<void> {
    await this.run(['apply', '-f', '-'], { stdin: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }) });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running].map((s) => s.stop()));
  }
}
