// Original file: api/containerd/runtime/bootstrap/v1/bootstrap.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../../../google/protobuf/Any';

export interface Extension {
  'value'?: (_google_protobuf_Any | null);
}

export interface Extension__Output {
  'value': (_google_protobuf_Any__Output | null);
}
