// Original file: api/containerd/v1/types/task.proto

import type { Status as _containerd_v1_types_Status, Status__Output as _containerd_v1_types_Status__Output } from '../../../containerd/v1/types/Status';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface Process {
  'container_id'?: (string);
  'id'?: (string);
  'pid'?: (number);
  'status'?: (_containerd_v1_types_Status);
  'stdin'?: (string);
  'stdout'?: (string);
  'stderr'?: (string);
  'terminal'?: (boolean);
  'exit_status'?: (number);
  'exited_at'?: (_google_protobuf_Timestamp | null);
}

export interface Process__Output {
  'container_id': (string);
  'id': (string);
  'pid': (number);
  'status': (_containerd_v1_types_Status__Output);
  'stdin': (string);
  'stdout': (string);
  'stderr': (string);
  'terminal': (boolean);
  'exit_status': (number);
  'exited_at': (_google_protobuf_Timestamp__Output | null);
}
