// Original file: api/berth/admin/v1/admin.proto

import type { Long } from '@grpc/proto-loader';

export interface GarbageCollectResponse {
  'removed_blobs'?: (string)[];
  'removed_snapshots'?: (string)[];
  'reclaimed_bytes'?: (number | string | Long);
}

export interface GarbageCollectResponse__Output {
  'removed_blobs': (string)[];
  'removed_snapshots': (string)[];
  'reclaimed_bytes': (string);
}
