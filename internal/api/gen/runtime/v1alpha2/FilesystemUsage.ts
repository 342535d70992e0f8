// Original file: api/runtime/v1alpha2/api.proto

import type { FilesystemIdentifier as _runtime_v1alpha2_FilesystemIdentifier, FilesystemIdentifier__Output as _runtime_v1alpha2_FilesystemIdentifier__Output } from '../../runtime/v1alpha2/FilesystemIdentifier';
import type { UInt64Value as _runtime_v1alpha2_UInt64Value, UInt64Value__Output as _runtime_v1alpha2_UInt64Value__Output } from '../../runtime/v1alpha2/UInt64Value';
import type { Long } from '@grpc/proto-loader';

export interface FilesystemUsage {
  'timestamp'?: (number | string | Long);
  'fs_id'?: (_runtime_v1alpha2_FilesystemIdentifier | null);
  'used_bytes'?: (_runtime_v1alpha2_UInt64Value | null);
  'inodes_used'?: (_runtime_v1alpha2_UInt64Value | null);
}

export interface FilesystemUsage__Output {
  'timestamp': (string);
  'fs_id': (_runtime_v1alpha2_FilesystemIdentifier__Output | null);
  'used_bytes': (_runtime_v1alpha2_UInt64Value__Output | null);
  'inodes_used': (_runtime_v1alpha2_UInt64Value__Output | null);
}
