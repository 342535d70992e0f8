// Original file: api/containerd/task/v2/shim.proto

import type { ProcessInfo as _containerd_v1_types_ProcessInfo, ProcessInfo__Output as _containerd_v1_types_ProcessInfo__Output } from '../../../containerd/v1/types/ProcessInfo';

export interface PidsResponse {
  'processes'?: (_containerd_v1_types_ProcessInfo)[];
}

export interface PidsResponse__Output {
  'processes': (_containerd_v1_types_ProcessInfo__Output)[];
}
