// Original file: api/runtime/v1alpha2/api.proto

import type { PodSandboxStats as _runtime_v1alpha2_PodSandboxStats, PodSandboxStats__Output as _runtime_v1alpha2_PodSandboxStats__Output } from '../../runtime/v1alpha2/PodSandboxStats';

export interface ListPodSandboxStatsResponse {
  'stats'?: (_runtime_v1alpha2_PodSandboxStats)[];
}

export interface ListPodSandboxStatsResponse__Output {
  'stats': (_runtime_v1alpha2_PodSandboxStats__Output)[];
}
