// Original file: api/containerd/task/v2/shim.proto

import type { Mount as _containerd_types_Mount, Mount__Output as _containerd_types_Mount__Output } from '../../../containerd/types/Mount';
import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../../google/protobuf/Any';

export interface CreateTaskRequest {
  'id'?: (string);
  'bundle'?: (string);
  'rootfs'?: (_containerd_types_Mount)[];
  'terminal'?: (boolean);
  'stdin'?: (string);
  'stdout'?: (string);
  'stderr'?: (string);
  'checkpoint'?: (string);
  'parent_checkpoint'?: (string);
  'options'?: (_google_protobuf_Any | null);
}

export interface CreateTaskRequest__Output {
  'id': (string);
  'bundle': (string);
  'rootfs': (_containerd_types_Mount__Output)[];
  'terminal': (boolean);
  'stdin': (string);
  'stdout': (string);
  'stderr': (string);
  'checkpoint': (string);
  'parent_checkpoint': (string);
  'options': (_google_protobuf_Any__Output | null);
}
