// A standalone kubelet (no API server, no kubeconfig) for one runtime: static pods from a manifest
// dir, remote CRI runtime, cgroupfs under the run's own cgroup root, every port on 127.0.0.1,
// anonymous access to its API (AlwaysAllow), and every directory it writes under its own temp dir.
// Started detached (its own process group) and stopped by PID.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, processRef, terminate, type ProcessRef } from '../bench/procs';
import { KubeletApi } from './kubelet_api';
import { loopbackKubeletConfig, remoteRuntimeFlags } from './kubelet_config';

export interface KubeletOptions {
  binary: string;
  /** The kubelet's own dir: root dir, config, manifests, cert dir, log. */
  dir: string;
  /** The runtime's CRI socket (runtime and image service). */
  runtimeSocket: string;
  /** Where cadvisor looks for a containerd (it only reads); a path nobody serves for berth. */
  cadvisorContainerdSocket: string;
  cgroupRoot: string;
  podInfraImage: string;
  port: number;
  /** KubeletConfiguration fields the checks need beyond the fixed ones. */
  extraConfig?: Record<string, unknown>;
}

export const NODE_NAME = 'berth-e2e-node';

function kubeletConfig(opts: KubeletOptions, manifestDir: string, overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    ...loopbackKubeletConfig(opts),
    staticPodPath: manifestDir,
    fileCheckFrequency: '1s',
    ...opts.extraConfig,
    ...overrides,
  };
}

export class Kubelet {
  readonly api: KubeletApi;
  readonly manifestDir: string;
  readonly rootDir: string;
  readonly logPath: string;
  private ref: ProcessRef | undefined;
  /** KubeletConfiguration fields of this launch on top of the options' (see restartWith). */
  private overrides: Record<string, unknown> = {};

  private constructor(private readonly opts: KubeletOptions) {
    this.manifestDir = join(opts.dir, 'manifests');
    this.rootDir = join(opts.dir, 'root');
    this.logPath = join(opts.dir, 'kubelet.log');
    this.api = new KubeletApi(`https://127.0.0.1:${opts.port}`);
  }

  get pid(): number | undefined {
    return this.ref?.pid;
  }

  static async start(opts: KubeletOptions): Promise<Kubelet> {
    const k = new Kubelet(opts);
    for (const d of [k.manifestDir, k.rootDir]) mkdirSync(d, { recursive: true });
    await k.launch();
    return k;
  }

  logTail(chars = 3000): string {
    return existsSync(this.logPath) ? readFileSync(this.logPath, 'utf8').slice(-chars) : '';
  }

  /** Starts the process (again, on the same dirs) and waits until its API answers. */
  async launch(): Promise<void> {
    const { opts } = this;
    const configPath = join(opts.dir, 'kubelet-config.json');
    writeFileSync(configPath, JSON.stringify(kubeletConfig(opts, this.manifestDir, this.overrides), null, 2));
    const args = [
      ...remoteRuntimeFlags({ ...opts, nodeName: NODE_NAME }, configPath),
      '--node-ip=127.0.0.1',
      '--enforce-node-allocatable=',
      // Dead-container GC (check i1) as 1.20's defaults have it, spelled out: a finished container
      // may go at once, and one dead instance per container is kept (deprecated flags, no config field).
      '--minimum-container-ttl-duration=0s',
      '--maximum-dead-containers-per-container=1',
      '--v=2',
    ];
    const logFd = openSync(this.logPath, 'a');
    let child;
    try {
      child = spawn(opts.binary, args, { stdio: ['ignore', logFd, logFd], detached: true });
    } finally {
      closeSync(logFd);
    }
    child.unref();
    child.on('error', () => undefined);
    const ref = child.pid === undefined ? undefined : processRef(child.pid);
    if (ref === undefined) throw new Error(`kubelet did not start: ${this.logTail()}`);
    this.ref = ref;
    const giveUp = Date.now() + 60_000;
    for (;;) {
      if (!isAlive(ref)) throw new Error(`kubelet exited at start:\n${this.logTail()}`);
      if (await this.api.healthy()) return;
      if (Date.now() > giveUp) throw new Error(`kubelet API not answering after 60 s:\n${this.logTail()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * Stops the kubelet and starts it again on the same dirs with `overrides` (e.g. image GC
   * thresholds) on top of the options' config; `{}` goes back to the options' config.
   */
  async restartWith(overrides: Record<string, unknown>): Promise<void> {
    await this.stop('SIGTERM');
    this.overrides = overrides;
    await this.launch();
  }

  /** kill -9 or SIGTERM; the pods stay (kubelet does not stop them when it exits). */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const ref = this.ref;
    this.ref = undefined;
    if (ref === undefined) return;
    if (signal === 'SIGKILL' && isAlive(ref)) process.kill(ref.pid, 'SIGKILL');
    await terminate(ref, 10_000);
  }
}
