// One runtime's pass: the runtime started with the test images in it, a kubelet on it, every
// check run in order (a failing check is recorded, not fatal), each check's pods deleted after
// it, then everything undone newest first: pods deleted through the kubelet, kubelet stopped by
// PID, the runtime torn down (pods via CRI, daemon, shims, mounts), cgroups, the CNI bridge.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { CleanupStack } from '../bench/cleanup';
import { unmountUnder } from '../bench/mounts';
import { freePort } from '../harness/registry';
import { PAUSE_IMAGE } from '../harness/images';
import { deletePod, type Check, type E2eContext } from './check';
import { Kubelet } from './kubelet';
import { bindVarLog } from './private_mounts';
import type { Outcome, RuntimeResult } from './report';
import { startRuntime, type RuntimeName } from './runtimes';

export interface RunOptions {
  kubeletBinary: string;
  runDir: string;
  runId: string;
  images: string[];
  checks: readonly Check[];
  log(line: string): void;
  aborted(): boolean;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** KubeletConfiguration fields the checks rely on (g: rotation at a small size, kept files). */
const KUBELET_EXTRA_CONFIG = { containerLogMaxSize: '64Ki', containerLogMaxFiles: 10 };

async function deleteStarted(ctx: E2eContext): Promise<string[]> {
  const problems: string[] = [];
  for (const base of [...ctx.started]) {
    try {
      await deletePod(ctx, base);
    } catch (err) {
      problems.push(messageOf(err));
    }
  }
  return problems;
}

export async function runOnRuntime(name: RuntimeName, opts: RunOptions): Promise<RuntimeResult> {
  const result: RuntimeResult = { outcomes: {}, latencies: {}, cleanupFailures: [] };
  const cleanup = new CleanupStack();
  const log = (line: string) => opts.log(`${name}: ${line}`);
  try {
    const undoVarLog = bindVarLog(join(opts.runDir, `var-log-${name}`));
    cleanup.push('/var/log bind', undoVarLog);
    const runtime = await startRuntime(name, opts.runDir, opts.runId, opts.images, cleanup);
    log(`runtime pid ${runtime.peer.pid}, bridge ${runtime.cni.bridge} ${runtime.cni.subnet}, cgroup root ${runtime.cgroupRoot}`);
    const kubeletDir = join(opts.runDir, `kubelet-${name}`);
    mkdirSync(kubeletDir, { recursive: true });
    const kubelet = await Kubelet.start({
      binary: opts.kubeletBinary,
      dir: kubeletDir,
      runtimeSocket: runtime.peer.socket,
      cadvisorContainerdSocket: runtime.cadvisorContainerdSocket,
      cgroupRoot: runtime.cgroupRoot,
      podInfraImage: PAUSE_IMAGE,
      port: await freePort(),
      extraConfig: KUBELET_EXTRA_CONFIG,
    });
    // The kubelet bind-mounts its root dir onto itself (to make it rshared): unmounted once it is gone.
    cleanup.push(`kubelet mounts under ${kubeletDir}`, () => void unmountUnder(kubeletDir));
    cleanup.push(`kubelet (pid ${kubelet.pid})`, () => kubelet.stop());
    log(`kubelet pid ${kubelet.pid} on ${kubelet.api.baseUrl}, log ${kubelet.logPath}`);
    const scratchDir = join(opts.runDir, `scratch-${name}`);
    mkdirSync(scratchDir, { recursive: true });
    const ctx: E2eContext = { kubelet, runtime, scratchDir, log, latencies: new Map(), started: new Set() };
    // Registered after the kubelet's stop, so it runs before it: pods leave through the kubelet.
    cleanup.push('pods deleted through the kubelet', async () => {
      const left = await deleteStarted(ctx);
      if (left.length > 0) throw new Error(left.join('; '));
    });
    for (const check of opts.checks) {
      if (opts.aborted()) break;
      log(`${check.id} ${check.title}...`);
      const start = Date.now();
      let outcome: Outcome;
      try {
        await check.run(ctx);
        outcome = { ok: true, ms: Date.now() - start };
      } catch (err) {
        outcome = { ok: false, ms: Date.now() - start, error: messageOf(err) };
      }
      result.outcomes[check.id] = outcome;
      log(`${check.id}: ${'ok' in outcome && outcome.ok ? 'pass' : `FAIL: ${'error' in outcome ? outcome.error : ''}`}`);
      const left = await deleteStarted(ctx);
      for (const l of left) log(`after ${check.id}: ${l}`);
    }
    result.latencies = Object.fromEntries(ctx.latencies);
  } catch (err) {
    result.fatal = messageOf(err);
    log(`could not run: ${result.fatal}`);
  } finally {
    result.cleanupFailures = await cleanup.runAll();
  }
  return result;
}
