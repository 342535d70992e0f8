// Original file: api/runtime/v1alpha2/api.proto

import type { Int64Value as _runtime_v1alpha2_Int64Value, Int64Value__Output as _runtime_v1alpha2_Int64Value__Output } from '../../runtime/v1alpha2/Int64Value';
import type { ImageSpec as _runtime_v1alpha2_ImageSpec, ImageSpec__Output as _runtime_v1alpha2_ImageSpec__Output } from '../../runtime/v1alpha2/ImageSpec';
import type { Long } from '@grpc/proto-loader';

export interface Image {
  'id'?: (string);
  'repo_tags'?: (string)[];
  'repo_digests'?: (string)[];
  'size'?: (number | string | Long);
  'uid'?: (_runtime_v1alpha2_Int64Value | null);
  'username'?: (string);
  'spec'?: (_runtime_v1alpha2_ImageSpec | null);
  'pinned'?: (boolean);
}

export interface Image__Output {
  'id': (string);
  'repo_tags': (string)[];
  'repo_digests': (string)[];
  'size': (string);
  'uid': (_runtime_v1alpha2_Int64Value__Output | null);
  'username': (string);
  'spec': (_runtime_v1alpha2_ImageSpec__Output | null);
  'pinned': (boolean);
}
