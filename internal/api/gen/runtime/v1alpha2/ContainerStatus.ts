// Original file: api/runtime/v1alpha2/api.proto

import type { ContainerMetadata as _runtime_v1alpha2_ContainerMetadata, ContainerMetadata__Output as _runtime_v1alpha2_ContainerMetadata__Output } from '../../runtime/v1alpha2/ContainerMetadata';
import type { ContainerState as _runtime_v1alpha2_ContainerState, ContainerState__Output as _runtime_v1alpha2_ContainerState__Output } from '../../runtime/v1alpha2/ContainerState';
import type { ImageSpec as _runtime_v1alpha2_ImageSpec, ImageSpec__Output as _runtime_v1alpha2_ImageSpec__Output } from '../../runtime/v1alpha2/ImageSpec';
import type { Mount as _runtime_v1alpha2_Mount, Mount__Output as _runtime_v1alpha2_Mount__Output } from '../../runtime/v1alpha2/Mount';
import type { ContainerResources as _runtime_v1alpha2_ContainerResources, ContainerResources__Output as _runtime_v1alpha2_ContainerResources__Output } from '../../runtime/v1alpha2/ContainerResources';
import type { Long } from '@grpc/proto-loader';

export interface ContainerStatus {
  'id'?: (string);
  'metadata'?: (_runtime_v1alpha2_ContainerMetadata | null);
  'state'?: (_runtime_v1alpha2_ContainerState);
  'created_at'?: (number | string | Long);
  'started_at'?: (number | string | Long);
  'finished_at'?: (number | string | Long);
  'exit_code'?: (number);
  'image'?: (_runtime_v1alpha2_ImageSpec | null);
  'image_ref'?: (string);
  'reason'?: (string);
  'message'?: (string);
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
  'mounts'?: (_runtime_v1alpha2_Mount)[];
  'log_path'?: (string);
  'resources'?: (_runtime_v1alpha2_ContainerResources | null);
}

export interface ContainerStatus__Output {
  'id': (string);
  'metadata': (_runtime_v1alpha2_ContainerMetadata__Output | null);
  'state': (_runtime_v1alpha2_ContainerState__Output);
  'created_at': (string);
  'started_at': (string);
  'finished_at': (string);
  'exit_code': (number);
  'image': (_runtime_v1alpha2_ImageSpec__Output | null);
  'image_ref': (string);
  'reason': (string);
  'message': (string);
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
  'mounts': (_runtime_v1alpha2_Mount__Output)[];
  'log_path': (string);
  'resources': (_runtime_v1alpha2_ContainerResources__Output | null);
}
