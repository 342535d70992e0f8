// Original file: api/runtime/v1alpha2/api.proto

import type { NetworkConfig as _runtime_v1alpha2_NetworkConfig, NetworkConfig__Output as _runtime_v1alpha2_NetworkConfig__Output } from '../../runtime/v1alpha2/NetworkConfig';

export interface RuntimeConfig {
  'network_config'?: (_runtime_v1alpha2_NetworkConfig | null);
}

export interface RuntimeConfig__Output {
  'network_config': (_runtime_v1alpha2_NetworkConfig__Output | null);
}
