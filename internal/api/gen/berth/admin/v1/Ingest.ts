// Original file: api/berth/admin/v1/admin.proto

import type { Long } from '@grpc/proto-loader';

export interface Ingest {
  'ref'?: (string);
  'offset'?: (number | string | Long);
}

export interface Ingest__Output {
  'ref': (string);
  'offset': (string);
}
