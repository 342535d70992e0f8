// Original file: api/runtime/v1alpha2/api.proto

import type { NamespaceMode as _runtime_v1alpha2_NamespaceMode, NamespaceMode__Output as _runtime_v1alpha2_NamespaceMode__Output } from '../../runtime/v1alpha2/NamespaceMode';
import type { IDMapping as _runtime_v1alpha2_IDMapping, IDMapping__Output as _runtime_v1alpha2_IDMapping__Output } from '../../runtime/v1alpha2/IDMapping';

export interface UserNamespace {
  'mode'?: (_runtime_v1alpha2_NamespaceMode);
  'uids'?: (_runtime_v1alpha2_IDMapping)[];
  'gids'?: (_runtime_v1alpha2_IDMapping)[];
}

export interface UserNamespace__Output {
  'mode': (_runtime_v1alpha2_NamespaceMode__Output);
  'uids': (_runtime_v1alpha2_IDMapping__Output)[];
  'gids': (_runtime_v1alpha2_IDMapping__Output)[];
}
