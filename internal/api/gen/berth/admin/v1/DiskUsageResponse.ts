// Original file: api/berth/admin/v1/admin.proto

import type { DiskUsage as _berth_admin_v1_DiskUsage, DiskUsage__Output as _berth_admin_v1_DiskUsage__Output } from '../../../berth/admin/v1/DiskUsage';
import type { ContainerDiskUsage as _berth_admin_v1_ContainerDiskUsage, ContainerDiskUsage__Output as _berth_admin_v1_ContainerDiskUsage__Output } from '../../../berth/admin/v1/ContainerDiskUsage';

export interface DiskUsageResponse {
  'images'?: (_berth_admin_v1_DiskUsage | null);
  'snapshots'?: (_berth_admin_v1_DiskUsage | null);
  'writable_layers'?: (_berth_admin_v1_DiskUsage | null);
  'logs'?: (_berth_admin_v1_DiskUsage | null);
  'containers'?: (_berth_admin_v1_ContainerDiskUsage)[];
}

export interface DiskUsageResponse__Output {
  'images': (_berth_admin_v1_DiskUsage__Output | null);
  'snapshots': (_berth_admin_v1_DiskUsage__Output | null);
  'writable_layers': (_berth_admin_v1_DiskUsage__Output | null);
  'logs': (_berth_admin_v1_DiskUsage__Output | null);
  'containers': (_berth_admin_v1_ContainerDiskUsage__Output)[];
}
