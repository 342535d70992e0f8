// Randomised CRI requests for the fuzz suite: valid shapes carrying hostile values (random and
// unicode strings, "../", huge and negative numbers, nulls where messages go, unknown enum numbers).
// Seeded, so a failure is reproducible from the seed the test prints. Values that would make a
// *successful* request touch the host outside the test's own dirs (cgroup parents, log dirs, mount
// sources) are drawn only from hostile forms berthd must refuse, or from the test's own paths.
import type { ContainerConfig } from '../../../internal/api/gen/runtime/v1/ContainerConfig';
import type { LinuxContainerResources } from '../../../internal/api/gen/runtime/v1/LinuxContainerResources';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';

/** mulberry32: a tiny seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FuzzTargets {
  /** Real IDs to aim at (a pod, a running container, created ones). */
  podIds: () => string[];
  containerIds: () => string[];
  /** The env's own cgroup parent and log/mount dirs: the only host paths a request may really use. */
  cgroupParent: string;
  logDir: string;
  mountSource: string;
  image: string;
}

export type FuzzCall = { method: string; request: unknown };

export class FuzzGen {
  private readonly r: () => number;

  constructor(seed: number, private readonly t: FuzzTargets) {
    this.r = prng(seed);
  }

  private int(n: number): number {
    return Math.floor(this.r() * n);
  }

  private chance(p: number): boolean {
    return this.r() < p;
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }

  private randomText(max: number): string {
    // Whole code points: a lone surrogate is drawn on purpose (case 8 of str()), not by accident.
    const alphabet = Array.from('abcXYZ019-_./:@ \t\n\\"\'%$*?[]{}\u00e9\u4e2d\u202e\ud83d\udca5');
    let s = '';
    for (let i = this.int(max + 1); i > 0; i--) s += alphabet[this.int(alphabet.length)];
    return s;
  }

  /** A hostile string: random, long, traversal, unicode, control characters, or a real-ish ID. */
  str(): string {
    switch (this.int(12)) {
      case 0: return '';
      case 1: return '../'.repeat(1 + this.int(8)) + 'etc/passwd';
      case 2: return 'a'.repeat(200 + this.int(400));
      case 3: return '\u0000\u0001\n\r';
      case 4: return '\ud83d\udca5\u202e\u0301\u4e2d\u6587';
      case 5: return this.pick([...this.t.podIds(), ...this.t.containerIds(), 'f'.repeat(64)]).slice(0, 1 + this.int(64));
      case 6: return '/' + this.randomText(20);
      case 7: return `x${this.int(1000)}`;
      case 8: return this.chance(0.2) ? 'lone\udca5surrogate' : this.randomText(30); // invalid UTF-8 on the wire
      default: return this.randomText(30);
    }
  }

  /** A name that validation may accept: short and plain most of the time, hostile otherwise. */
  name(): string {
    return this.chance(0.5) ? `fz${this.int(1_000_000)}` : this.str();
  }

  int64(): string {
    return this.pick(['-1', '0', '1', '-9223372036854775808', '9223372036854775807', '4294967296', '-1000', String(this.int(2 ** 31)), '999', '1000001']);
  }

  int32(): number {
    return this.pick([-1, 0, 1, 2 ** 31 - 1, -(2 ** 31), 65536, 70000, this.int(100_000)]);
  }

  /** An enum value: a known name, or a number the server never heard of. */
  enumOf(names: readonly string[]): string | number {
    return this.chance(0.8) ? this.pick(names) : this.pick([-1, 99, 2 ** 31 - 1]);
  }

  /** A host path: hostile (relative, traversal) or one of the env's own dirs. */
  hostPath(own: string): string {
    return this.pick([own, 'relative/dir', '../../etc', `${own}/../../etc`, '', `${own}/\u0000x`]);
  }

  maybe<T>(f: () => T): T | null | undefined {
    const roll = this.r();
    return roll < 0.15 ? null : roll < 0.3 ? undefined : f();
  }

  resources(): LinuxContainerResources {
    return {
      cpu_period: this.int64(),
      cpu_quota: this.int64(),
      cpu_shares: this.int64(),
      memory_limit_in_bytes: this.int64(),
      oom_score_adj: this.int64(),
      cpuset_cpus: this.chance(0.5) ? '' : this.str(),
      cpuset_mems: this.chance(0.5) ? '' : this.str(),
      hugepage_limits: this.chance(0.8) ? [] : [{ page_size: this.str(), limit: this.int64() }],
      unified: this.chance(0.9) ? {} : { [this.str() || 'k']: this.str() },
    };
  }

  namespaces() {
    const modes = ['POD', 'CONTAINER', 'NODE', 'TARGET'] as const;
    // NODE network would put a fuzz pod in the host's network namespace: never ask for it.
    return { network: this.pick(['POD', 'CONTAINER'] as const), pid: this.enumOf(modes), ipc: this.enumOf(['POD', 'CONTAINER']), target_id: this.chance(0.5) ? '' : this.str() };
  }

  /** A valid config with one or two top-level fields replaced by hostile ones (half the time). */
  private mutate<T extends object>(valid: T, hostile: T): T {
    if (this.chance(0.4)) return hostile;
    const out = { ...valid } as Record<string, unknown>;
    const keys = Object.keys(hostile);
    for (let i = 1 + this.int(2); i > 0; i--) {
      const key = this.pick(keys);
      out[key] = (hostile as Record<string, unknown>)[key];
    }
    return out as T;
  }

  validPod(): PodSandboxConfig {
    const name = `fz${this.int(1_000_000)}`;
    return {
      metadata: { name, uid: `uid-${name}`, namespace: 'fuzz', attempt: 0 },
      hostname: name,
      log_directory: this.t.logDir,
      linux: { cgroup_parent: this.t.cgroupParent, security_context: { namespace_options: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
    };
  }

  validContainer(): ContainerConfig {
    const name = `fz${this.int(1_000_000)}`;
    return {
      metadata: { name, attempt: 0 },
      image: { image: this.t.image },
      command: this.pick([['true'], ['sh', '-c', 'echo hi'], ['sleep', '3600'], ['/no/such/binary']]),
      log_path: `${name}.log`,
      linux: { security_context: { namespace_options: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
    };
  }

  pod(): PodSandboxConfig {
    return this.mutate(this.validPod(), this.podConfig());
  }

  container(): ContainerConfig {
    return this.mutate(this.validContainer(), this.containerConfig());
  }

  podConfig(): PodSandboxConfig {
    return {
      metadata: this.maybe(() => ({ name: this.name(), uid: this.name(), namespace: this.name(), attempt: this.int32() })),
      hostname: this.chance(0.5) ? '' : this.str(),
      log_directory: this.pick([this.t.logDir, '', 'relative', '/x/../../etc', `${this.t.logDir}/..`]),
      dns_config: this.maybe(() => ({ servers: [this.str()], searches: [this.str()], options: [this.str()] })),
      port_mappings: this.chance(0.7) ? [] : [{ protocol: this.enumOf(['TCP', 'UDP', 'SCTP']) as 'TCP', container_port: this.int32(), host_port: this.pick([0, -1, 70000]), host_ip: this.str() }],
      labels: this.chance(0.7) ? {} : { [this.str() || 'l']: this.str() },
      annotations: this.chance(0.7) ? {} : { [this.str() || 'a']: this.str() },
      linux: this.maybe(() => ({
        cgroup_parent: this.pick([this.t.cgroupParent, `${this.t.cgroupParent}/../..`, '../escape']),
        sysctls: this.chance(0.8) ? {} : { [this.str() || 's']: this.str() },
        security_context: this.maybe(() => ({
          namespace_options: this.maybe(() => this.namespaces()),
          run_as_user: this.maybe(() => ({ value: this.int64() })),
          seccomp: this.maybe(() => ({ profile_type: this.enumOf(['RuntimeDefault', 'Unconfined', 'Localhost']) as 'Unconfined', localhost_ref: this.str() })),
          privileged: false,
        })),
        overhead: this.maybe(() => this.resources()),
        resources: this.maybe(() => this.resources()),
      })),
    } as PodSandboxConfig;
  }

  containerConfig(): ContainerConfig {
    return {
      metadata: this.maybe(() => ({ name: this.name(), attempt: this.int32() })),
      image: this.maybe(() => ({ image: this.chance(0.6) ? this.t.image : this.str() })),
      command: this.chance(0.3) ? [] : [this.str(), this.str()],
      args: this.chance(0.5) ? [] : [this.str()],
      working_dir: this.chance(0.5) ? '' : this.str(),
      envs: this.chance(0.6) ? [] : [{ key: this.str(), value: Buffer.from(this.str()) }],
      mounts: this.chance(0.6) ? [] : [{ container_path: this.str(), host_path: this.hostPath(this.t.mountSource), readonly: this.chance(0.5), propagation: this.enumOf(['PROPAGATION_PRIVATE', 'PROPAGATION_HOST_TO_CONTAINER', 'PROPAGATION_BIDIRECTIONAL']) as 'PROPAGATION_PRIVATE' }],
      devices: this.chance(0.8) ? [] : [{ container_path: this.str(), host_path: this.hostPath('/dev/null'), permissions: this.str() }],
      log_path: this.str(),
      stdin: this.chance(0.2),
      tty: this.chance(0.2),
      labels: this.chance(0.7) ? {} : { [this.str() || 'l']: this.str() },
      linux: this.maybe(() => ({
        resources: this.maybe(() => this.resources()),
        security_context: this.maybe(() => ({
          namespace_options: this.maybe(() => this.namespaces()),
          run_as_user: this.maybe(() => ({ value: this.int64() })),
          run_as_group: this.maybe(() => ({ value: this.int64() })),
          run_as_username: this.chance(0.8) ? '' : this.str(),
          readonly_rootfs: this.chance(0.5),
          supplemental_groups: this.chance(0.8) ? [] : [this.int64()],
          masked_paths: this.chance(0.8) ? [] : [this.str()],
          readonly_paths: this.chance(0.8) ? [] : [this.str()],
          seccomp_profile_path: this.chance(0.8) ? '' : this.str(),
          apparmor_profile: this.chance(0.8) ? '' : this.str(),
          privileged: false,
        })),
      })),
    } as ContainerConfig;
  }

  /** Destructive verbs hit a real container less often, so the others find live ones. */
  private containerId(real = 0.6): string {
    return this.chance(real) && this.t.containerIds().length > 0 ? this.pick(this.t.containerIds()) : this.str();
  }

  private podId(): string {
    return this.chance(0.7) && this.t.podIds().length > 0 ? this.pick(this.t.podIds()) : this.str();
  }

  /** One request for a random method of the fuzzed set. */
  next(): FuzzCall {
    switch (this.int(11)) {
      case 0: return { method: 'RunPodSandbox', request: { config: this.maybe(() => this.pod()), runtime_handler: this.chance(0.7) ? '' : this.str() } };
      case 1: return { method: 'CreateContainer', request: { pod_sandbox_id: this.podId(), config: this.maybe(() => this.container()), sandbox_config: null } };
      case 2: return { method: 'StartContainer', request: { container_id: this.containerId() } };
      case 3: return { method: 'StopContainer', request: { container_id: this.containerId(0.2), timeout: this.pick(['0', '-1', '1', '-9223372036854775808']) } };
      case 4: return { method: 'RemoveContainer', request: { container_id: this.containerId(0.2) } };
      case 5: return { method: 'ContainerStatus', request: { container_id: this.containerId(), verbose: this.chance(0.5) } };
      case 6: return { method: 'PodSandboxStatus', request: { pod_sandbox_id: this.podId(), verbose: this.chance(0.5) } };
      case 7: return { method: 'ListContainers', request: { filter: this.maybe(() => ({ id: this.str(), pod_sandbox_id: this.str(), state: this.maybe(() => ({ state: this.enumOf(['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_UNKNOWN']) })), label_selector: { [this.str() || 'k']: this.str() } })) } };
      case 8: return { method: 'ExecSync', request: { container_id: this.containerId(), cmd: this.chance(0.2) ? [] : [this.pick(['true', 'echo', this.str(), 'cat']), this.str()], timeout: this.pick(['1', '0', '-1']) } };
      case 9: return { method: 'UpdateContainerResources', request: { container_id: this.containerId(), linux: this.maybe(() => this.resources()) } };
      default: return { method: 'PullImage', request: { image: this.maybe(() => ({ image: this.chance(0.5) ? this.str() : `${this.pick(['docker.io/library/', 'quay.io/', 'localhost:5000/', ''])}${this.pick(['x', 'busybox', this.str()])}:${this.pick(['1', 'latest', this.str()])}` })), auth: this.maybe(() => ({ username: this.str(), password: this.str() })) } };
    }
  }
}
