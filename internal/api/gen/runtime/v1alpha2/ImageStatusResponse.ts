// Original file: api/runtime/v1alpha2/api.proto

import type { Image as _runtime_v1alpha2_Image, Image__Output as _runtime_v1alpha2_Image__Output } from '../../runtime/v1alpha2/Image';

export interface ImageStatusResponse {
  'image'?: (_runtime_v1alpha2_Image | null);
  'info'?: ({[key: string]: string});
}

export interface ImageStatusResponse__Output {
  'image': (_runtime_v1alpha2_Image__Output | null);
  'info': ({[key: string]: string});
}
