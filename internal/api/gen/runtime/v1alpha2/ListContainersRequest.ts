// Original file: api/runtime/v1alpha2/api.proto

import type { ContainerFilter as _runtime_v1alpha2_ContainerFilter, ContainerFilter__Output as _runtime_v1alpha2_ContainerFilter__Output } from '../../runtime/v1alpha2/ContainerFilter';

export interface ListContainersRequest {
  'filter'?: (_runtime_v1alpha2_ContainerFilter | null);
}

export interface ListContainersRequest__Output {
  'filter': (_runtime_v1alpha2_ContainerFilter__Output | null);
}
