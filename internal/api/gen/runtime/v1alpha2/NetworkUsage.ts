// Original file: api/runtime/v1alpha2/api.proto

import type { NetworkInterfaceUsage as _runtime_v1alpha2_NetworkInterfaceUsage, NetworkInterfaceUsage__Output as _runtime_v1alpha2_NetworkInterfaceUsage__Output } from '../../runtime/v1alpha2/NetworkInterfaceUsage';
import type { Long } from '@grpc/proto-loader';

export interface NetworkUsage {
  'timestamp'?: (number | string | Long);
  'default_interface'?: (_runtime_v1alpha2_NetworkInterfaceUsage | null);
  'interfaces'?: (_runtime_v1alpha2_NetworkInterfaceUsage)[];
}

export interface NetworkUsage__Output {
  'timestamp': (string);
  'default_interface': (_runtime_v1alpha2_NetworkInterfaceUsage__Output | null);
  'interfaces': (_runtime_v1alpha2_NetworkInterfaceUsage__Output)[];
}
