// Original file: api/runtime/v1alpha2/api.proto

import type { LinuxContainerResources as _runtime_v1alpha2_LinuxContainerResources, LinuxContainerResources__Output as _runtime_v1alpha2_LinuxContainerResources__Output } from '../../runtime/v1alpha2/LinuxContainerResources';
import type { WindowsContainerResources as _runtime_v1alpha2_WindowsContainerResources, WindowsContainerResources__Output as _runtime_v1alpha2_WindowsContainerResources__Output } from '../../runtime/v1alpha2/WindowsContainerResources';

export interface ContainerResources {
  'linux'?: (_runtime_v1alpha2_LinuxContainerResources | null);
  'windows'?: (_runtime_v1alpha2_WindowsContainerResources | null);
}

export interface ContainerResources__Output {
  'linux': (_runtime_v1alpha2_LinuxContainerResources__Output | null);
  'windows': (_runtime_v1alpha2_WindowsContainerResources__Output | null);
}
