// Original file: api/runtime/v1alpha2/api.proto

import type { ImageFilter as _runtime_v1alpha2_ImageFilter, ImageFilter__Output as _runtime_v1alpha2_ImageFilter__Output } from '../../runtime/v1alpha2/ImageFilter';

export interface ListImagesRequest {
  'filter'?: (_runtime_v1alpha2_ImageFilter | null);
}

export interface ListImagesRequest__Output {
  'filter': (_runtime_v1alpha2_ImageFilter__Output | null);
}
