// Original file: api/runtime/v1alpha2/api.proto

import type { PodIP as _runtime_v1alpha2_PodIP, PodIP__Output as _runtime_v1alpha2_PodIP__Output } from '../../runtime/v1alpha2/PodIP';

export interface PodSandboxNetworkStatus {
  'ip'?: (string);
  'additional_ips'?: (_runtime_v1alpha2_PodIP)[];
}

export interface PodSandboxNetworkStatus__Output {
  'ip': (string);
  'additional_ips': (_runtime_v1alpha2_PodIP__Output)[];
}
