// CRI runtime handlers ("" = the default) -> the configured Runtime v2 runtime and its options.
import type { BerthConfig, RuntimeHandlerConfig } from '../config/schema';
import { notFound } from '../errdefs/errors';
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

/** What the spec builders need to know of the runtime. */
export function specRuntimeOptions(config: BerthConfig, runtime: ResolvedRuntime): RuntimeOptions {
  return {
    namespace: CRI_NAMESPACE,
    restrictOomScoreAdj: config.cri.restrict_oom_score_adj,
    disableHugetlbController: config.cri.disable_hugetlb_controller,
    systemdCgroup: runtime.config.options.SystemdCgroup ?? false,
  };
}
