// Original file: api/runtime/v1alpha2/api.proto

import type { NamespaceOption as _runtime_v1alpha2_NamespaceOption, NamespaceOption__Output as _runtime_v1alpha2_NamespaceOption__Output } from '../../runtime/v1alpha2/NamespaceOption';

export interface Namespace {
  'options'?: (_runtime_v1alpha2_NamespaceOption | null);
}

export interface Namespace__Output {
  'options': (_runtime_v1alpha2_NamespaceOption__Output | null);
}
