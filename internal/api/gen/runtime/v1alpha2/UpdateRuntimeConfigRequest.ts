// Original file: api/runtime/v1alpha2/api.proto

import type { RuntimeConfig as _runtime_v1alpha2_RuntimeConfig, RuntimeConfig__Output as _runtime_v1alpha2_RuntimeConfig__Output } from '../../runtime/v1alpha2/RuntimeConfig';

export interface UpdateRuntimeConfigRequest {
  'runtime_config'?: (_runtime_v1alpha2_RuntimeConfig | null);
}

export interface UpdateRuntimeConfigRequest__Output {
  'runtime_config': (_runtime_v1alpha2_RuntimeConfig__Output | null);
}
