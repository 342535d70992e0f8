// Original file: api/runtime/v1alpha2/api.proto

import type { PodSandboxConfig as _runtime_v1alpha2_PodSandboxConfig, PodSandboxConfig__Output as _runtime_v1alpha2_PodSandboxConfig__Output } from '../../runtime/v1alpha2/PodSandboxConfig';

export interface RunPodSandboxRequest {
  'config'?: (_runtime_v1alpha2_PodSandboxConfig | null);
  'runtime_handler'?: (string);
}

export interface RunPodSandboxRequest__Output {
  'config': (_runtime_v1alpha2_PodSandboxConfig__Output | null);
  'runtime_handler': (string);
}
