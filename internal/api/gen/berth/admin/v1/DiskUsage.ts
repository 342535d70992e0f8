// Original file: api/berth/admin/v1/admin.proto

import type { Long } from '@grpc/proto-loader';

export interface DiskUsage {
  'count'?: (number | string | Long);
  'bytes'?: (number | string | Long);
}

export interface DiskUsage__Output {
  'count': (string);
  'bytes': (string);
}
