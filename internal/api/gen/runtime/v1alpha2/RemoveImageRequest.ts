// Original file: api/runtime/v1alpha2/api.proto

import type { ImageSpec as _runtime_v1alpha2_ImageSpec, ImageSpec__Output as _runtime_v1alpha2_ImageSpec__Output } from '../../runtime/v1alpha2/ImageSpec';

export interface RemoveImageRequest {
  'image'?: (_runtime_v1alpha2_ImageSpec | null);
}

export interface RemoveImageRequest__Output {
  'image': (_runtime_v1alpha2_ImageSpec__Output | null);
}
