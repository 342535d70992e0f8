// The shared end of a peer's life, LIFO: pods out through CRI, the daemon stopped by PID, any
// leftover containers deleted through runc and their shims killed, mounts under its dir
// unmounted, the dir removed. Each step runs even if an earlier one failed.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CriClient } from '../../harness/cri_client';
import { isUnimplemented, messageOf } from '../errors';
import { mountPointsUnder, unmountUnder } from '../mounts';
import { shimsOf, terminate, type ProcessRef } from '../procs';

const RPC_DEADLINE_MS = 60_000;
const deadline = () => ({ deadline: Date.now() + RPC_DEADLINE_MS });

/** Stops and removes every container and pod the daemon lists; returns the problems met. */
export async function removeAllPods(cri: CriClient): Promise<string[]> {
  const problems: string[] = [];
  const attempt = async (what: string, call: () => Promise<unknown>) => {
    try {
      await call();
    } catch (err) {
      if (!isUnimplemented(err)) problems.push(`${what}: ${messageOf(err)}`);
    }
  };
  let containers: string[] = [];
  await attempt('ListContainers', async () => {
    containers = (await cri.runtime.ListContainers({}, deadline())).containers.map((c) => c.id);
  });
  for (const id of containers) {
    await attempt(`StopContainer ${id}`, () => cri.runtime.StopContainer({ container_id: id, timeout: '0' }, deadline()));
    await attempt(`RemoveContainer ${id}`, () => cri.runtime.RemoveContainer({ container_id: id }, deadline()));
  }
  let pods: string[] = [];
  await attempt('ListPodSandbox', async () => {
    pods = (await cri.runtime.ListPodSandbox({}, deadline())).items.map((p) => p.id);
  });
  for (const id of pods) {
    await attempt(`StopPodSandbox ${id}`, () => cri.runtime.StopPodSandbox({ pod_sandbox_id: id }, deadline()));
    await attempt(`RemovePodSandbox ${id}`, () => cri.runtime.RemovePodSandbox({ pod_sandbox_id: id }, deadline()));
  }
  return problems;
}

/** Task bundles under `dir`: directories holding a config.json next to a rootfs (not descending into rootfs). */
function bundlesUnder(dir: string, depth = 0): string[] {
  if (depth > 6) return [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const names = new Set(entries.map((e) => e.name));
  if (names.has('config.json') && names.has('rootfs')) return [dir];
  return entries
    .filter((e) => e.isDirectory() && e.name !== 'rootfs' && e.name !== 'snapshots' && e.name !== 'content')
    .flatMap((e) => bundlesUnder(join(dir, e.name), depth + 1));
}

/** runc roots a shim may have used for a bundle: its options.json Root, else the shim default per namespace. */
function runcRootsFor(bundle: string): string[] {
  const roots = [`/run/containerd/runc/${basename(dirname(bundle))}`, '/run/containerd/runc/k8s.io'];
  try {
    const options = JSON.parse(readFileSync(join(bundle, 'options.json'), 'utf8')) as { Root?: string; root?: string };
    const root = options.Root ?? options.root;
    if (root) roots.unshift(join(root, basename(dirname(bundle))));
  } catch {
    // no options file: defaults only
  }
  return [...new Set(roots)];
}

/** Deletes (SIGKILL + runc delete) every container still bundled under `dir`; returns how many. */
export function deleteLeftoverContainers(dir: string): number {
  let deleted = 0;
  for (const bundle of bundlesUnder(dir)) {
    const id = basename(bundle);
    for (const root of runcRootsFor(bundle)) {
      if (!existsSync(join(root, id))) continue;
      try {
        execFileSync('runc', ['--root', root, 'delete', '--force', id], { stdio: 'ignore', timeout: 30_000 });
        deleted++;
      } catch {
        // already gone
      }
    }
  }
  return deleted;
}

export interface TeardownTarget {
  name: string;
  daemon: ProcessRef | undefined;
  dir: string;
  socket: string;
  cri?: CriClient;
}

/** The whole teardown; throws one error listing what could not be undone (after trying everything). */
export async function teardownPeer(target: TeardownTarget): Promise<void> {
  const problems: string[] = [];
  const step = async (what: string, fn: () => unknown) => {
    try {
      await fn();
    } catch (err) {
      problems.push(`${what}: ${messageOf(err)}`);
    }
  };
  if (target.cri) {
    const cri = target.cri;
    await step('remove pods', async () => {
      const left = await removeAllPods(cri);
      if (left.length > 0) throw new Error(left.join('; '));
    });
    cri.close();
  }
  if (target.daemon) {
    const daemon = target.daemon;
    await step('stop daemon', () => terminate(daemon, 10_000));
  }
  await step('leftover containers', () => deleteLeftoverContainers(target.dir));
  await step('leftover shims', async () => {
    for (const shim of shimsOf(target.dir, target.socket)) await terminate(shim, 2_000);
  });
  await step('unmount', () => unmountUnder(target.dir));
  await step('remove dir', () => {
    // Never recurse through a mount that is still there: it could be a bind of host files.
    const still = mountPointsUnder(target.dir);
    if (still.length > 0) throw new Error(`kept ${target.dir}: still mounted ${still.join(', ')}`);
    rmSync(target.dir, { recursive: true, force: true });
  });
  if (problems.length > 0) throw new Error(`${target.name} teardown: ${problems.join('; ')}`);
}
