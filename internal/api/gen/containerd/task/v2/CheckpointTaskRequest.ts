// Original file: api/containerd/task/v2/shim.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../../google/protobuf/Any';

export interface CheckpointTaskRequest {
  'id'?: (string);
  'path'?: (string);
  'options'?: (_google_protobuf_Any | null);
}

export interface CheckpointTaskRequest__Output {
  'id': (string);
  'path': (string);
  'options': (_google_protobuf_Any__Output | null);
}
