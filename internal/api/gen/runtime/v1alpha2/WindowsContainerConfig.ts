// Original file: api/runtime/v1alpha2/api.proto

import type { WindowsContainerResources as _runtime_v1alpha2_WindowsContainerResources, WindowsContainerResources__Output as _runtime_v1alpha2_WindowsContainerResources__Output } from '../../runtime/v1alpha2/WindowsContainerResources';
import type { WindowsContainerSecurityContext as _runtime_v1alpha2_WindowsContainerSecurityContext, WindowsContainerSecurityContext__Output as _runtime_v1alpha2_WindowsContainerSecurityContext__Output } from '../../runtime/v1alpha2/WindowsContainerSecurityContext';

export interface WindowsContainerConfig {
  'resources'?: (_runtime_v1alpha2_WindowsContainerResources | null);
  'security_context'?: (_runtime_v1alpha2_WindowsContainerSecurityContext | null);
}

export interface WindowsContainerConfig__Output {
  'resources': (_runtime_v1alpha2_WindowsContainerResources__Output | null);
  'security_context': (_runtime_v1alpha2_WindowsContainerSecurityContext__Output | null);
}
