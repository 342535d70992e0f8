// Original file: api/runtime/v1alpha2/api.proto

import type { Image as _runtime_v1alpha2_Image, Image__Output as _runtime_v1alpha2_Image__Output } from '../../runtime/v1alpha2/Image';

export interface ListImagesResponse {
  'images'?: (_runtime_v1alpha2_Image)[];
}

export interface ListImagesResponse__Output {
  'images': (_runtime_v1alpha2_Image__Output)[];
}
