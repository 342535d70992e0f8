// Original file: api/containerd/types/mount.proto

import type { Mount as _containerd_types_Mount, Mount__Output as _containerd_types_Mount__Output } from '../../containerd/types/Mount';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

export interface ActiveMount {
  'mount'?: (_containerd_types_Mount | null);
  'mounted_at'?: (_google_protobuf_Timestamp | null);
  'mount_point'?: (string);
  'data'?: ({[key: string]: string});
}

export interface ActiveMount__Output {
  'mount': (_containerd_types_Mount__Output | null);
  'mounted_at': (_google_protobuf_Timestamp__Output | null);
  'mount_point': (string);
  'data': ({[key: string]: string});
}
