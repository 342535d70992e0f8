// Original file: api/runtime/v1/api.proto

import type { UInt64Value as _runtime_v1_UInt64Value, UInt64Value__Output as _runtime_v1_UInt64Value__Output } from '../../runtime/v1/UInt64Value';
import type { Long } from '@grpc/proto-loader';

export interface SwapUsage {
  'timestamp'?: (number | string | Long);
  'swap_available_bytes'?: (_runtime_v1_UInt64Value | null);
  'swap_usage_bytes'?: (_runtime_v1_UInt64Value | null);
}

export interface SwapUsage__Output {
  'timestamp': (string);
  'swap_available_bytes': (_runtime_v1_UInt64Value__Output | null);
  'swap_usage_bytes': (_runtime_v1_UInt64Value__Output | null);
}
