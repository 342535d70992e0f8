// Original file: api/runtime/v1/api.proto

import type { WindowsCpuGroupAffinity as _runtime_v1_WindowsCpuGroupAffinity, WindowsCpuGroupAffinity__Output as _runtime_v1_WindowsCpuGroupAffinity__Output } from '../../runtime/v1/WindowsCpuGroupAffinity';
import type { Long } from '@grpc/proto-loader';

export interface WindowsContainerResources {
  'cpu_shares'?: (number | string | Long);
  'cpu_count'?: (number | string | Long);
  'cpu_maximum'?: (number | string | Long);
  'memory_limit_in_bytes'?: (number | string | Long);
  'rootfs_size_in_bytes'?: (number | string | Long);
  'affinity_cpus'?: (_runtime_v1_WindowsCpuGroupAffinity)[];
}

export interface WindowsContainerResources__Output {
  'cpu_shares': (string);
  'cpu_count': (string);
  'cpu_maximum': (string);
  'memory_limit_in_bytes': (string);
  'rootfs_size_in_bytes': (string);
  'affinity_cpus': (_runtime_v1_WindowsCpuGroupAffinity__Output)[];
}
