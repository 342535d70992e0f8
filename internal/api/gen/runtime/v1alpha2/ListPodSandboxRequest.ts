// Original file: api/runtime/v1alpha2/api.proto

import type { PodSandboxFilter as _runtime_v1alpha2_PodSandboxFilter, PodSandboxFilter__Output as _runtime_v1alpha2_PodSandboxFilter__Output } from '../../runtime/v1alpha2/PodSandboxFilter';

export interface ListPodSandboxRequest {
  'filter'?: (_runtime_v1alpha2_PodSandboxFilter | null);
}

export interface ListPodSandboxRequest__Output {
  'filter': (_runtime_v1alpha2_PodSandboxFilter__Output | null);
}
