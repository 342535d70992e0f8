// Original file: api/runtime/v1alpha2/api.proto

import type { ContainerStateValue as _runtime_v1alpha2_ContainerStateValue, ContainerStateValue__Output as _runtime_v1alpha2_ContainerStateValue__Output } from '../../runtime/v1alpha2/ContainerStateValue';

export interface ContainerFilter {
  'id'?: (string);
  'state'?: (_runtime_v1alpha2_ContainerStateValue | null);
  'pod_sandbox_id'?: (string);
  'label_selector'?: ({[key: string]: string});
}

export interface ContainerFilter__Output {
  'id': (string);
  'state': (_runtime_v1alpha2_ContainerStateValue__Output | null);
  'pod_sandbox_id': (string);
  'label_selector': ({[key: string]: string});
}
