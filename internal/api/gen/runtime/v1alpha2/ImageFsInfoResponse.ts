// Original file: api/runtime/v1alpha2/api.proto

import type { FilesystemUsage as _runtime_v1alpha2_FilesystemUsage, FilesystemUsage__Output as _runtime_v1alpha2_FilesystemUsage__Output } from '../../runtime/v1alpha2/FilesystemUsage';

export interface ImageFsInfoResponse {
  'image_filesystems'?: (_runtime_v1alpha2_FilesystemUsage)[];
}

export interface ImageFsInfoResponse__Output {
  'image_filesystems': (_runtime_v1alpha2_FilesystemUsage__Output)[];
}
