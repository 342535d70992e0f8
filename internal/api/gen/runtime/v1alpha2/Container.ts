// Original file: api/runtime/v1alpha2/api.proto

import type { ContainerMetadata as _runtime_v1alpha2_ContainerMetadata, ContainerMetadata__Output as _runtime_v1alpha2_ContainerMetadata__Output } from '../../runtime/v1alpha2/ContainerMetadata';
import type { ImageSpec as _runtime_v1alpha2_ImageSpec, ImageSpec__Output as _runtime_v1alpha2_ImageSpec__Output } from '../../runtime/v1alpha2/ImageSpec';
import type { ContainerState as _runtime_v1alpha2_ContainerState, ContainerState__Output as _runtime_v1alpha2_ContainerState__Output } from '../../runtime/v1alpha2/ContainerState';
import type { Long } from '@grpc/proto-loader';

export interface Container {
  'id'?: (string);
  'pod_sandbox_id'?: (string);
  'metadata'?: (_runtime_v1alpha2_ContainerMetadata | null);
  'image'?: (_runtime_v1alpha2_ImageSpec | null);
  'image_ref'?: (string);
  'state'?: (_runtime_v1alpha2_ContainerState);
  'created_at'?: (number | string | Long);
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
}

export interface Container__Output {
  'id': (string);
  'pod_sandbox_id': (string);
  'metadata': (_runtime_v1alpha2_ContainerMetadata__Output | null);
  'image': (_runtime_v1alpha2_ImageSpec__Output | null);
  'image_ref': (string);
  'state': (_runtime_v1alpha2_ContainerState__Output);
  'created_at': (string);
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
}
