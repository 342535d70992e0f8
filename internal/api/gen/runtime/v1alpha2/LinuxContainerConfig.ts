// Original file: api/runtime/v1alpha2/api.proto

import type { LinuxContainerResources as _runtime_v1alpha2_LinuxContainerResources, LinuxContainerResources__Output as _runtime_v1alpha2_LinuxContainerResources__Output } from '../../runtime/v1alpha2/LinuxContainerResources';
import type { LinuxContainerSecurityContext as _runtime_v1alpha2_LinuxContainerSecurityContext, LinuxContainerSecurityContext__Output as _runtime_v1alpha2_LinuxContainerSecurityContext__Output } from '../../runtime/v1alpha2/LinuxContainerSecurityContext';

export interface LinuxContainerConfig {
  'resources'?: (_runtime_v1alpha2_LinuxContainerResources | null);
  'security_context'?: (_runtime_v1alpha2_LinuxContainerSecurityContext | null);
}

export interface LinuxContainerConfig__Output {
  'resources': (_runtime_v1alpha2_LinuxContainerResources__Output | null);
  'security_context': (_runtime_v1alpha2_LinuxContainerSecurityContext__Output | null);
}
