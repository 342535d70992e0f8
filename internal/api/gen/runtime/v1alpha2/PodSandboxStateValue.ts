// Original file: api/runtime/v1alpha2/api.proto

import type { PodSandboxState as _runtime_v1alpha2_PodSandboxState, PodSandboxState__Output as _runtime_v1alpha2_PodSandboxState__Output } from '../../runtime/v1alpha2/PodSandboxState';

export interface PodSandboxStateValue {
  'state'?: (_runtime_v1alpha2_PodSandboxState);
}

export interface PodSandboxStateValue__Output {
  'state': (_runtime_v1alpha2_PodSandboxState__Output);
}
