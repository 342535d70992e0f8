// Original file: api/runtime/v1alpha2/api.proto

import type { NamespaceMode as _runtime_v1alpha2_NamespaceMode, NamespaceMode__Output as _runtime_v1alpha2_NamespaceMode__Output } from '../../runtime/v1alpha2/NamespaceMode';
import type { UserNamespace as _runtime_v1alpha2_UserNamespace, UserNamespace__Output as _runtime_v1alpha2_UserNamespace__Output } from '../../runtime/v1alpha2/UserNamespace';

export interface NamespaceOption {
  'network'?: (_runtime_v1alpha2_NamespaceMode);
  'pid'?: (_runtime_v1alpha2_NamespaceMode);
  'ipc'?: (_runtime_v1alpha2_NamespaceMode);
  'target_id'?: (string);
  'userns_options'?: (_runtime_v1alpha2_UserNamespace | null);
}

export interface NamespaceOption__Output {
  'network': (_runtime_v1alpha2_NamespaceMode__Output);
  'pid': (_runtime_v1alpha2_NamespaceMode__Output);
  'ipc': (_runtime_v1alpha2_NamespaceMode__Output);
  'target_id': (string);
  'userns_options': (_runtime_v1alpha2_UserNamespace__Output | null);
}
