// Original file: api/runtime/v1alpha2/api.proto

import type { ImageSpec as _runtime_v1alpha2_ImageSpec, ImageSpec__Output as _runtime_v1alpha2_ImageSpec__Output } from '../../runtime/v1alpha2/ImageSpec';

export interface ImageStatusRequest {
  'image'?: (_runtime_v1alpha2_ImageSpec | null);
  'verbose'?: (boolean);
}

export interface ImageStatusRequest__Output {
  'image': (_runtime_v1alpha2_ImageSpec__Output | null);
  'verbose': (boolean);
}
