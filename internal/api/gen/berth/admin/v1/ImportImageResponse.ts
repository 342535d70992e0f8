// Original file: api/berth/admin/v1/admin.proto

import type { ImportedImage as _berth_admin_v1_ImportedImage, ImportedImage__Output as _berth_admin_v1_ImportedImage__Output } from '../../../berth/admin/v1/ImportedImage';

export interface ImportImageResponse {
  'images'?: (_berth_admin_v1_ImportedImage)[];
}

export interface ImportImageResponse__Output {
  'images': (_berth_admin_v1_ImportedImage__Output)[];
}
