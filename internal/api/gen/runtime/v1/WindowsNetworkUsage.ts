// Original file: api/runtime/v1/api.proto

import type { WindowsNetworkInterfaceUsage as _runtime_v1_WindowsNetworkInterfaceUsage, WindowsNetworkInterfaceUsage__Output as _runtime_v1_WindowsNetworkInterfaceUsage__Output } from '../../runtime/v1/WindowsNetworkInterfaceUsage';
import type { Long } from '@grpc/proto-loader';

export interface WindowsNetworkUsage {
  'timestamp'?: (number | string | Long);
  'default_interface'?: (_runtime_v1_WindowsNetworkInterfaceUsage | null);
  'interfaces'?: (_runtime_v1_WindowsNetworkInterfaceUsage)[];
}

export interface WindowsNetworkUsage__Output {
  'timestamp': (string);
  'default_interface': (_runtime_v1_WindowsNetworkInterfaceUsage__Output | null);
  'interfaces': (_runtime_v1_WindowsNetworkInterfaceUsage__Output)[];
}
