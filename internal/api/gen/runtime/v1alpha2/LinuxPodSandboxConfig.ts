// Original file: api/runtime/v1alpha2/api.proto

import type { LinuxSandboxSecurityContext as _runtime_v1alpha2_LinuxSandboxSecurityContext, LinuxSandboxSecurityContext__Output as _runtime_v1alpha2_LinuxSandboxSecurityContext__Output } from '../../runtime/v1alpha2/LinuxSandboxSecurityContext';
import type { LinuxContainerResources as _runtime_v1alpha2_LinuxContainerResources, LinuxContainerResources__Output as _runtime_v1alpha2_LinuxContainerResources__Output } from '../../runtime/v1alpha2/LinuxContainerResources';

export interface LinuxPodSandboxConfig {
  'cgroup_parent'?: (string);
  'security_context'?: (_runtime_v1alpha2_LinuxSandboxSecurityContext | null);
  'sysctls'?: ({[key: string]: string});
  'overhead'?: (_runtime_v1alpha2_LinuxContainerResources | null);
  'resources'?: (_runtime_v1alpha2_LinuxContainerResources | null);
}

export interface LinuxPodSandboxConfig__Output {
  'cgroup_parent': (string);
  'security_context': (_runtime_v1alpha2_LinuxSandboxSecurityContext__Output | null);
  'sysctls': ({[key: string]: string});
  'overhead': (_runtime_v1alpha2_LinuxContainerResources__Output | null);
  'resources': (_runtime_v1alpha2_LinuxContainerResources__Output | null);
}
