// What a runtime handler's OCI runtime can do, learnt as containerd 2.0 learns it (its shim runs
// `runc features`): recursive read-only mounts need runc's "rro" mount option (runc >= 1.1) and
// mount_setattr(2) with AT_RECURSIVE (Linux >= 5.12). Each binary is asked once, then remembered
// (on disk too, runtime_features_cache.ts). berthd asks right after it starts serving, as containerd
// introspects each handler at start, so a node's first CreateContainer does not wait for it (45 ms
// here, most of that first call).
import { release } from 'node:os';
import type { RuntimeHandlerConfig } from '../../config/schema';
import type { Logger } from '../../log/logger';
import { parseKernelVersion } from '../../oci/seccomp_default';
import { findExecutable } from '../../runtime/v2/resolve';
import { daemonEnv, runProcess } from '../../sys/process';
import { FeaturesCache } from './runtime_features_cache';

// `runc features` prints a few KiB; a runtime that hangs must not stall the calls that wait for it.
const PROBE_TIMEOUT_MS = 10_000;

export interface HandlerFeatures {
  recursiveReadOnlyMounts: boolean;
}

const NONE: HandlerFeatures = { recursiveReadOnlyMounts: false };

/** The OCI runtime the runc shim runs for a handler: its BinaryName, else `runc` on PATH (as the shim). */
export function ociRuntimeBinary(config: Pick<RuntimeHandlerConfig, 'options'>): string {
  return config.options.BinaryName || 'runc';
}

/** mount_setattr(2) with AT_RECURSIVE came in Linux 5.12 (containerd's kernelSupportsRRO). */
export function kernelSupportsRecursiveReadOnly(kernelRelease: string): boolean {
  const v = parseKernelVersion(kernelRelease);
  return v !== undefined && (v.kernel > 5 || (v.kernel === 5 && v.major >= 12));
}

/** The mountOptions of an OCI runtime-spec features document (`runc features`); [] when absent. */
export function featureMountOptions(featuresJson: string): string[] {
  const doc: unknown = JSON.parse(featuresJson);
  const options = typeof doc === 'object' && doc !== null ? (doc as { mountOptions?: unknown }).mountOptions : undefined;
  return Array.isArray(options) ? options.filter((o): o is string => typeof o === 'string') : [];
}

export class RuntimeFeatures {
  private readonly asked = new Map<string, Promise<HandlerFeatures>>();
  private readonly kernel = release();
  private readonly cache: FeaturesCache;

  /** `cacheFile`: where answers are kept across restarts; undefined keeps them in memory only. */
  constructor(
    cacheFile: string | undefined,
    private readonly logger: Logger,
    private readonly searchPath = process.env.PATH ?? '',
  ) {
    this.cache = new FeaturesCache(cacheFile, this.kernel);
  }

  /** The features of the handler configured as `config`, asked of its OCI runtime on first use. */
  of(config: Pick<RuntimeHandlerConfig, 'options'>): Promise<HandlerFeatures> {
    const name = ociRuntimeBinary(config);
    let features = this.asked.get(name);
    if (features === undefined) {
      features = this.learn(name);
      this.asked.set(name, features);
    }
    return features;
  }

  /** Starts learning every handler's features now (berthd serving), without waiting for them. */
  prefetch(handlers: Iterable<Pick<RuntimeHandlerConfig, 'options'>>): void {
    for (const config of handlers) void this.of(config);
  }

  private async learn(name: string): Promise<HandlerFeatures> {
    const binary = findExecutable(name, this.searchPath);
    if (binary === undefined) {
      this.logger.debug('runtime features unknown: binary not found', { binary: name });
      return NONE;
    }
    const identity = this.cache.identityOf(binary);
    const kept = this.cache.get(binary, identity);
    if (kept !== undefined) return kept;
    const features = await this.ask(binary);
    if (features !== undefined) this.cache.set(binary, identity, features);
    return features ?? NONE;
  }

  /** `binary features`, read; undefined when it gave no answer to keep (a timeout, a crash). */
  private async ask(binary: string): Promise<HandlerFeatures | undefined> {
    let mountOptions: string[];
    try {
      // posix_spawn (sys/process.ts): child_process's fork() held berthd's thread ~10 ms.
      const run = await runProcess({ file: binary, args: ['features'], env: daemonEnv(), timeoutMs: PROBE_TIMEOUT_MS });
      if (run.timedOut || run.signal !== null) {
        this.logger.warn('runtime features unknown: the runtime did not answer', { binary, timedOut: run.timedOut, signal: run.signal });
        return undefined;
      }
      // runc before 1.1 has no `features` (exit status 1): it supports none of what is asked here.
      if (run.code !== 0) return NONE;
      mountOptions = featureMountOptions(run.stdout.toString('utf8'));
    } catch (err) {
      this.logger.debug('runtime features unknown', { binary, error: String(err) });
      return undefined;
    }
    const rro = mountOptions.includes('rro');
    if (rro && !kernelSupportsRecursiveReadOnly(this.kernel)) this.logger.debug('runtime supports rro mounts, the kernel does not', { binary, kernel: this.kernel });
    return { recursiveReadOnlyMounts: rro && kernelSupportsRecursiveReadOnly(this.kernel) };
  }
}
