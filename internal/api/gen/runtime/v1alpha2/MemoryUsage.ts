// Original file: api/runtime/v1alpha2/api.proto

import type { UInt64Value as _runtime_v1alpha2_UInt64Value, UInt64Value__Output as _runtime_v1alpha2_UInt64Value__Output } from '../../runtime/v1alpha2/UInt64Value';
import type { Long } from '@grpc/proto-loader';

export interface MemoryUsage {
  'timestamp'?: (number | string | Long);
  'working_set_bytes'?: (_runtime_v1alpha2_UInt64Value | null);
  'available_bytes'?: (_runtime_v1alpha2_UInt64Value | null);
  'usage_bytes'?: (_runtime_v1alpha2_UInt64Value | null);
  'rss_bytes'?: (_runtime_v1alpha2_UInt64Value | null);
  'page_faults'?: (_runtime_v1alpha2_UInt64Value | null);
  'major_page_faults'?: (_runtime_v1alpha2_UInt64Value | null);
}

export interface MemoryUsage__Output {
  'timestamp': (string);
  'working_set_bytes': (_runtime_v1alpha2_UInt64Value__Output | null);
  'available_bytes': (_runtime_v1alpha2_UInt64Value__Output | null);
  'usage_bytes': (_runtime_v1alpha2_UInt64Value__Output | null);
  'rss_bytes': (_runtime_v1alpha2_UInt64Value__Output | null);
  'page_faults': (_runtime_v1alpha2_UInt64Value__Output | null);
  'major_page_faults': (_runtime_v1alpha2_UInt64Value__Output | null);
}
