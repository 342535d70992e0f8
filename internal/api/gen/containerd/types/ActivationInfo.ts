// Original file: api/containerd/types/mount.proto

import type { ActiveMount as _containerd_types_ActiveMount, ActiveMount__Output as _containerd_types_ActiveMount__Output } from '../../containerd/types/ActiveMount';
import type { Mount as _containerd_types_Mount, Mount__Output as _containerd_types_Mount__Output } from '../../containerd/types/Mount';

export interface ActivationInfo {
  'name'?: (string);
  'active'?: (_containerd_types_ActiveMount)[];
  'system'?: (_containerd_types_Mount)[];
  'labels'?: ({[key: string]: string});
}

export interface ActivationInfo__Output {
  'name': (string);
  'active': (_containerd_types_ActiveMount__Output)[];
  'system': (_containerd_types_Mount__Output)[];
  'labels': ({[key: string]: string});
}
