// What a runtime handler's OCI runtime can do, learnt as containerd 2.0 learns it (its shim runs
// `runc features`): recursive read-only mounts need runc's "rro" mount option (runc >= 1.1) and
// mount_setattr(2) with AT_RECURSIVE (Linux >= 5.12). Each binary is asked once, then remembered,
// as containerd introspects each handler once at start.
import { execFile } from 'node:child_process';
import { release } from 'node:os';
import { promisify } from 'node:util';
import type { RuntimeHandlerConfig } from '../../config/schema';
import type { Logger } from '../../log/logger';
import { parseKernelVersion } from '../../oci/seccomp_default';

const execFileAsync = promisify(execFile);

// `runc features` prints a few KiB; a runtime that hangs or floods must not stall or bloat berthd.
const PROBE_TIMEOUT_MS = 10_000;
const PROBE_MAX_OUTPUT = 1 << 20;

export interface HandlerFeatures {
  recursiveReadOnlyMounts: boolean;
}

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

async function probe(binary: string, logger: Logger): Promise<HandlerFeatures> {
  let mountOptions: string[];
  try {
    const { stdout } = await execFileAsync(binary, ['features'], { timeout: PROBE_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: PROBE_MAX_OUTPUT });
    mountOptions = featureMountOptions(stdout);
  } catch (err) {
    // runc before 1.1 has no `features`: it supports none of what is asked here.
    logger.debug('runtime features unknown', { binary, error: String(err) });
    return { recursiveReadOnlyMounts: false };
  }
  const kernel = release();
  const rro = mountOptions.includes('rro');
  if (rro && !kernelSupportsRecursiveReadOnly(kernel)) logger.debug('runtime supports rro mounts, the kernel does not', { binary, kernel });
  return { recursiveReadOnlyMounts: rro && kernelSupportsRecursiveReadOnly(kernel) };
}

const probes = new Map<string, Promise<HandlerFeatures>>();

/** The features of the handler configured as `config`, asked of its OCI runtime on first use. */
export function handlerFeatures(config: Pick<RuntimeHandlerConfig, 'options'>, logger: Logger): Promise<HandlerFeatures> {
  const binary = ociRuntimeBinary(config);
  let features = probes.get(binary);
  if (features === undefined) {
    features = probe(binary, logger);
    probes.set(binary, features);
  }
  return features;
}
