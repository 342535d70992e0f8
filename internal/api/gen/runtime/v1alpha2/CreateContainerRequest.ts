// Original file: api/runtime/v1alpha2/api.proto

import type { ContainerConfig as _runtime_v1alpha2_ContainerConfig, ContainerConfig__Output as _runtime_v1alpha2_ContainerConfig__Output } from '../../runtime/v1alpha2/ContainerConfig';
import type { PodSandboxConfig as _runtime_v1alpha2_PodSandboxConfig, PodSandboxConfig__Output as _runtime_v1alpha2_PodSandboxConfig__Output } from '../../runtime/v1alpha2/PodSandboxConfig';

export interface CreateContainerRequest {
  'pod_sandbox_id'?: (string);
  'config'?: (_runtime_v1alpha2_ContainerConfig | null);
  'sandbox_config'?: (_runtime_v1alpha2_PodSandboxConfig | null);
}

export interface CreateContainerRequest__Output {
  'pod_sandbox_id': (string);
  'config': (_runtime_v1alpha2_ContainerConfig__Output | null);
  'sandbox_config': (_runtime_v1alpha2_PodSandboxConfig__Output | null);
}
