// Original file: api/runtime/v1/api.proto

import type { Long } from '@grpc/proto-loader';

export interface WindowsCpuGroupAffinity {
  'cpu_mask'?: (number | string | Long);
  'cpu_group'?: (number);
}

export interface WindowsCpuGroupAffinity__Output {
  'cpu_mask': (string);
  'cpu_group': (number);
}
