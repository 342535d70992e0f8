// Original file: api/runtime/v1alpha2/api.proto

import type { MountPropagation as _runtime_v1alpha2_MountPropagation, MountPropagation__Output as _runtime_v1alpha2_MountPropagation__Output } from '../../runtime/v1alpha2/MountPropagation';

export interface Mount {
  'container_path'?: (string);
  'host_path'?: (string);
  'readonly'?: (boolean);
  'selinux_relabel'?: (boolean);
  'propagation'?: (_runtime_v1alpha2_MountPropagation);
}

export interface Mount__Output {
  'container_path': (string);
  'host_path': (string);
  'readonly': (boolean);
  'selinux_relabel': (boolean);
  'propagation': (_runtime_v1alpha2_MountPropagation__Output);
}
