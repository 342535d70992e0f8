// Original file: api/runtime/v1alpha2/api.proto

import type { PodSandboxMetadata as _runtime_v1alpha2_PodSandboxMetadata, PodSandboxMetadata__Output as _runtime_v1alpha2_PodSandboxMetadata__Output } from '../../runtime/v1alpha2/PodSandboxMetadata';
import type { PodSandboxState as _runtime_v1alpha2_PodSandboxState, PodSandboxState__Output as _runtime_v1alpha2_PodSandboxState__Output } from '../../runtime/v1alpha2/PodSandboxState';
import type { Long } from '@grpc/proto-loader';

export interface PodSandbox {
  'id'?: (string);
  'metadata'?: (_runtime_v1alpha2_PodSandboxMetadata | null);
  'state'?: (_runtime_v1alpha2_PodSandboxState);
  'created_at'?: (number | string | Long);
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
  'runtime_handler'?: (string);
}

export interface PodSandbox__Output {
  'id': (string);
  'metadata': (_runtime_v1alpha2_PodSandboxMetadata__Output | null);
  'state': (_runtime_v1alpha2_PodSandboxState__Output);
  'created_at': (string);
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
  'runtime_handler': (string);
}
