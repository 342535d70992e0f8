// Original file: api/runtime/v1alpha2/api.proto

import type { Container as _runtime_v1alpha2_Container, Container__Output as _runtime_v1alpha2_Container__Output } from '../../runtime/v1alpha2/Container';

export interface ListContainersResponse {
  'containers'?: (_runtime_v1alpha2_Container)[];
}

export interface ListContainersResponse__Output {
  'containers': (_runtime_v1alpha2_Container__Output)[];
}
