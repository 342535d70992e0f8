// Original file: api/berth/admin/v1/admin.proto

import type { Long } from '@grpc/proto-loader';

export interface ContainerDiskUsage {
  'id'?: (string);
  'name'?: (string);
  'pod_sandbox_id'?: (string);
  'writable_layer_bytes'?: (number | string | Long);
  'log_bytes'?: (number | string | Long);
}

export interface ContainerDiskUsage__Output {
  'id': (string);
  'name': (string);
  'pod_sandbox_id': (string);
  'writable_layer_bytes': (string);
  'log_bytes': (string);
}
