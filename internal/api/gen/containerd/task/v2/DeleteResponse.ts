// Original file: api/containerd/task/v2/shim.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface DeleteResponse {
  'pid'?: (number);
  'exit_status'?: (number);
  'exited_at'?: (_google_protobuf_Timestamp | null);
}

export interface DeleteResponse__Output {
  'pid': (number);
  'exit_status': (number);
  'exited_at': (_google_protobuf_Timestamp__Output | null);
}
