// Original file: api/runtime/v1alpha2/api.proto

import type { ContainerState as _runtime_v1alpha2_ContainerState, ContainerState__Output as _runtime_v1alpha2_ContainerState__Output } from '../../runtime/v1alpha2/ContainerState';

export interface ContainerStateValue {
  'state'?: (_runtime_v1alpha2_ContainerState);
}

export interface ContainerStateValue__Output {
  'state': (_runtime_v1alpha2_ContainerState__Output);
}
