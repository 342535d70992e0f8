// Original file: api/containerd/task/v2/shim.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../../google/protobuf/Any';

export interface ExecProcessRequest {
  'id'?: (string);
  'exec_id'?: (string);
  'terminal'?: (boolean);
  'stdin'?: (string);
  'stdout'?: (string);
  'stderr'?: (string);
  'spec'?: (_google_protobuf_Any | null);
}

export interface ExecProcessRequest__Output {
  'id': (string);
  'exec_id': (string);
  'terminal': (boolean);
  'stdin': (string);
  'stdout': (string);
  'stderr': (string);
  'spec': (_google_protobuf_Any__Output | null);
}
