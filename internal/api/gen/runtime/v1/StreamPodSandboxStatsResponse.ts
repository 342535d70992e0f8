// Original file: api/runtime/v1/api.proto

import type { PodSandboxStats as _runtime_v1_PodSandboxStats, PodSandboxStats__Output as _runtime_v1_PodSandboxStats__Output } from '../../runtime/v1/PodSandboxStats';

export interface StreamPodSandboxStatsResponse {
  'pod_sandbox_stats'?: (_runtime_v1_PodSandboxStats)[];
}

export interface StreamPodSandboxStatsResponse__Output {
  'pod_sandbox_stats': (_runtime_v1_PodSandboxStats__Output)[];
}
