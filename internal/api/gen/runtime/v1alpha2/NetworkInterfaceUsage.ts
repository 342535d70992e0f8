// Original file: api/runtime/v1alpha2/api.proto

import type { UInt64Value as _runtime_v1alpha2_UInt64Value, UInt64Value__Output as _runtime_v1alpha2_UInt64Value__Output } from '../../runtime/v1alpha2/UInt64Value';

export interface NetworkInterfaceUsage {
  'name'?: (string);
  'rx_bytes'?: (_runtime_v1alpha2_UInt64Value | null);
  'rx_errors'?: (_runtime_v1alpha2_UInt64Value | null);
  'tx_bytes'?: (_runtime_v1alpha2_UInt64Value | null);
  'tx_errors'?: (_runtime_v1alpha2_UInt64Value | null);
}

export interface NetworkInterfaceUsage__Output {
  'name': (string);
  'rx_bytes': (_runtime_v1alpha2_UInt64Value__Output | null);
  'rx_errors': (_runtime_v1alpha2_UInt64Value__Output | null);
  'tx_bytes': (_runtime_v1alpha2_UInt64Value__Output | null);
  'tx_errors': (_runtime_v1alpha2_UInt64Value__Output | null);
}
