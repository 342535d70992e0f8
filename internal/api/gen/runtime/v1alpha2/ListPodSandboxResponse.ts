// Original file: api/runtime/v1alpha2/api.proto

import type { PodSandbox as _runtime_v1alpha2_PodSandbox, PodSandbox__Output as _runtime_v1alpha2_PodSandbox__Output } from '../../runtime/v1alpha2/PodSandbox';

export interface ListPodSandboxResponse {
  'items'?: (_runtime_v1alpha2_PodSandbox)[];
}

export interface ListPodSandboxResponse__Output {
  'items': (_runtime_v1alpha2_PodSandbox__Output)[];
}
