// The e2e run lives in a mount namespace of its own (main.ts re-executes itself under `unshare
// --mount --propagation private`), so what kubelet 1.20 writes to fixed host paths lands in the
// run's temp dir instead, and every mount the daemons make vanishes with the namespace:
// - /var/log: kubelet keeps pod logs under /var/log/pods and links under /var/log/containers,
//   both hard-coded; the runtimes write the logs where kubelet says, so both must see the bind
//   (one per runtime, in that runtime's dir).
// - kernel tunables: kubelet sets vm.overcommit_memory, kernel.panic etc. host-wide unless they
//   already hold its values; files holding those values are bound over them (kubelet also runs
//   with protectKernelDefaults, so if a bind were missing it would refuse to start, not write).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NAMESPACE_MARK = 'BERTH_E2E_PRIVATE_MOUNTS';

/** What kubelet 1.20's setupKernelTunables wants (pkg/kubelet/cm/container_manager_linux.go). */
const KUBELET_TUNABLES: Record<string, number> = {
  'vm/overcommit_memory': 1,
  'vm/panic_on_oom': 0,
  'kernel/panic': 10,
  'kernel/panic_on_oops': 1,
  'kernel/keys/root_maxkeys': 1000000,
  'kernel/keys/root_maxbytes': 25000000,
};

/**
 * In the parent: runs this same script inside a new private mount namespace and returns its exit
 * code. In the child (already inside): returns undefined, and the caller goes on with the run.
 */
export function reexecInPrivateMountNamespace(): number | undefined {
  if (process.env[NAMESPACE_MARK] === '1') return undefined;
  // The child handles Ctrl-C (it cleans up first); the parent only waits for it.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);
  const child = spawnSync('unshare', ['--mount', '--propagation', 'private', '--', process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [NAMESPACE_MARK]: '1' },
  });
  if (child.error) throw child.error;
  return child.status ?? 1;
}

function bind(source: string, target: string): void {
  execFileSync('mount', ['--bind', source, target], { stdio: ['ignore', 'ignore', 'pipe'] });
}

const inNamespace = () => {
  if (process.env[NAMESPACE_MARK] !== '1') throw new Error('host paths bound outside the private mount namespace');
};

/**
 * Binds `dir` over /var/log (stacked on any earlier bind); returns the undo. Each runtime gets its
 * own: a static pod's UID is a hash of its manifest, so the same manifest on the next runtime
 * would otherwise append to the log files the previous one left.
 */
export function bindVarLog(dir: string): () => void {
  inNamespace();
  mkdirSync(join(dir, 'pods'), { recursive: true });
  mkdirSync(join(dir, 'containers'), { recursive: true });
  bind(dir, '/var/log');
  return () => execFileSync('umount', ['/var/log'], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Binds the tunables files (under `runDir`) over /proc/sys. */
export function bindKernelTunables(runDir: string): void {
  inNamespace();
  const tunables = join(runDir, 'sysctl');
  mkdirSync(tunables, { recursive: true });
  for (const [name, value] of Object.entries(KUBELET_TUNABLES)) {
    const file = join(tunables, name.replace(/\//g, '.'));
    writeFileSync(file, `${value}\n`);
    bind(file, join('/proc/sys', name));
  }
}
