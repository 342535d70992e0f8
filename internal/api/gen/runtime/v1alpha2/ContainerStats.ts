// Original file: api/runtime/v1alpha2/api.proto

import type { ContainerAttributes as _runtime_v1alpha2_ContainerAttributes, ContainerAttributes__Output as _runtime_v1alpha2_ContainerAttributes__Output } from '../../runtime/v1alpha2/ContainerAttributes';
import type { CpuUsage as _runtime_v1alpha2_CpuUsage, CpuUsage__Output as _runtime_v1alpha2_CpuUsage__Output } from '../../runtime/v1alpha2/CpuUsage';
import type { MemoryUsage as _runtime_v1alpha2_MemoryUsage, MemoryUsage__Output as _runtime_v1alpha2_MemoryUsage__Output } from '../../runtime/v1alpha2/MemoryUsage';
import type { FilesystemUsage as _runtime_v1alpha2_FilesystemUsage, FilesystemUsage__Output as _runtime_v1alpha2_FilesystemUsage__Output } from '../../runtime/v1alpha2/FilesystemUsage';

export interface ContainerStats {
  'attributes'?: (_runtime_v1alpha2_ContainerAttributes | null);
  'cpu'?: (_runtime_v1alpha2_CpuUsage | null);
  'memory'?: (_runtime_v1alpha2_MemoryUsage | null);
  'writable_layer'?: (_runtime_v1alpha2_FilesystemUsage | null);
}

export interface ContainerStats__Output {
  'attributes': (_runtime_v1alpha2_ContainerAttributes__Output | null);
  'cpu': (_runtime_v1alpha2_CpuUsage__Output | null);
  'memory': (_runtime_v1alpha2_MemoryUsage__Output | null);
  'writable_layer': (_runtime_v1alpha2_FilesystemUsage__Output | null);
}
