// CRI runtime handlers ("" = the default) -> the configured Runtime v2 runtime and its options.
import { readFileSync } from 'node:fs';
import type { BerthConfig, RuntimeHandlerConfig } from '../config/schema';
import { invalidArgument, notFound } from '../errdefs/errors';
import type { Spec } from '../oci/spec';
import { CdiRegistry } from './cdi/registry';
import { deviceFromPath } from './opts/host_access';
import type { RuntimeOptions } from './opts/types';

export interface ResolvedRuntime {
  /** The handler name as configured (the default's name when the request gave ""). */
  handler: string;
  config: RuntimeHandlerConfig;
}

/** containerd's CRI namespace: shims, cgroup fallbacks and bundles live under it. */
export const CRI_NAMESPACE = 'k8s.io';

export function resolveRuntimeHandler(config: BerthConfig, requested: string): ResolvedRuntime {
  const handler = requested === '' ? config.cri.default_runtime : requested;
  const runtime = config.cri.runtimes[handler];
  if (!runtime) {
    throw notFound(
      `runtime_handler "${handler}" is not configured (have: ${Object.keys(config.cri.runtimes).join(', ')})`,
    );
  }
  return { handler, config: runtime };
}

// Base specs by file, per loaded config: read once, as containerd reads them once at start.
const baseSpecsByConfig = new WeakMap<BerthConfig, Map<string, Spec>>();

/**
 * Reads every handler's base_runtime_spec (each file once). berthd calls it at start so that an
 * unreadable or malformed file stops it there, as containerd; throws naming the handler and file.
 */
export function loadBaseRuntimeSpecs(config: BerthConfig): void {
  const specs = new Map<string, Spec>();
  for (const [handler, runtime] of Object.entries(config.cri.runtimes)) {
    const file = runtime.base_runtime_spec;
    if (file !== '' && !specs.has(file)) specs.set(file, readBaseSpec(file, handler));
  }
  baseSpecsByConfig.set(config, specs);
}

function readBaseSpec(file: string, handler: string): Spec {
  const where = `cri.runtimes.${handler}.base_runtime_spec ${JSON.stringify(file)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw invalidArgument(`${where}: cannot load the base OCI spec: ${(err as Error).message}`, err);
  }
  const spec = parsed as Partial<Spec> | null;
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(spec) || typeof spec!.ociVersion !== 'string') throw invalidArgument(`${where}: not an OCI spec (no ociVersion)`);
  for (const key of ['process', 'linux', 'root', 'hooks', 'annotations'] as const) {
    if (spec![key] !== undefined && !isObject(spec![key])) throw invalidArgument(`${where}: ${key} must be an object`);
  }
  if (spec!.mounts !== undefined && !Array.isArray(spec!.mounts)) throw invalidArgument(`${where}: mounts must be a list`);
  return spec as Spec;
}

function baseSpecOf(config: BerthConfig, file: string): Spec | undefined {
  if (file === '') return undefined;
  if (!baseSpecsByConfig.has(config)) loadBaseRuntimeSpecs(config);
  return baseSpecsByConfig.get(config)!.get(file);
}

/** What the spec builders need to know of the runtime. */
export function specRuntimeOptions(config: BerthConfig, runtime: ResolvedRuntime): RuntimeOptions {
  return {
    namespace: CRI_NAMESPACE,
    restrictOomScoreAdj: config.cri.restrict_oom_score_adj,
    disableHugetlbController: config.cri.disable_hugetlb_controller,
    systemdCgroup: runtime.config.options.SystemdCgroup ?? false,
    podAnnotations: runtime.config.pod_annotations,
    containerAnnotations: runtime.config.container_annotations,
    privilegedWithoutHostDevices: runtime.config.privileged_without_host_devices,
    baseSpec: baseSpecOf(config, runtime.config.base_runtime_spec),
    cdi: config.cri.enable_cdi ? new CdiRegistry({ specDirs: config.cri.cdi_spec_dirs, statDevice: deviceFromPath }) : undefined,
  };
}
