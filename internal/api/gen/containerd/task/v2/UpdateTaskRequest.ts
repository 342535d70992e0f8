// Original file: api/containerd/task/v2/shim.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../../google/protobuf/Any';

export interface UpdateTaskRequest {
  'id'?: (string);
  'resources'?: (_google_protobuf_Any | null);
  'annotations'?: ({[key: string]: string});
}

export interface UpdateTaskRequest__Output {
  'id': (string);
  'resources': (_google_protobuf_Any__Output | null);
  'annotations': ({[key: string]: string});
}
