// Original file: api/runtime/v1alpha2/api.proto

import type { Long } from '@grpc/proto-loader';

export interface WindowsContainerResources {
  'cpu_shares'?: (number | string | Long);
  'cpu_count'?: (number | string | Long);
  'cpu_maximum'?: (number | string | Long);
  'memory_limit_in_bytes'?: (number | string | Long);
  'rootfs_size_in_bytes'?: (number | string | Long);
}

export interface WindowsContainerResources__Output {
  'cpu_shares': (string);
  'cpu_count': (string);
  'cpu_maximum': (string);
  'memory_limit_in_bytes': (string);
  'rootfs_size_in_bytes': (string);
}
