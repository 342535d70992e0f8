// Original file: api/runtime/v1alpha2/api.proto

import type { PodSandboxStateValue as _runtime_v1alpha2_PodSandboxStateValue, PodSandboxStateValue__Output as _runtime_v1alpha2_PodSandboxStateValue__Output } from '../../runtime/v1alpha2/PodSandboxStateValue';

export interface PodSandboxFilter {
  'id'?: (string);
  'state'?: (_runtime_v1alpha2_PodSandboxStateValue | null);
  'label_selector'?: ({[key: string]: string});
}

export interface PodSandboxFilter__Output {
  'id': (string);
  'state': (_runtime_v1alpha2_PodSandboxStateValue__Output | null);
  'label_selector': ({[key: string]: string});
}
