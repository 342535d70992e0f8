// Original file: api/runtime/v1alpha2/api.proto

import type { PodSandboxMetadata as _runtime_v1alpha2_PodSandboxMetadata, PodSandboxMetadata__Output as _runtime_v1alpha2_PodSandboxMetadata__Output } from '../../runtime/v1alpha2/PodSandboxMetadata';
import type { PodSandboxState as _runtime_v1alpha2_PodSandboxState, PodSandboxState__Output as _runtime_v1alpha2_PodSandboxState__Output } from '../../runtime/v1alpha2/PodSandboxState';
import type { PodSandboxNetworkStatus as _runtime_v1alpha2_PodSandboxNetworkStatus, PodSandboxNetworkStatus__Output as _runtime_v1alpha2_PodSandboxNetworkStatus__Output } from '../../runtime/v1alpha2/PodSandboxNetworkStatus';
import type { LinuxPodSandboxStatus as _runtime_v1alpha2_LinuxPodSandboxStatus, LinuxPodSandboxStatus__Output as _runtime_v1alpha2_LinuxPodSandboxStatus__Output } from '../../runtime/v1alpha2/LinuxPodSandboxStatus';
import type { Long } from '@grpc/proto-loader';

export interface PodSandboxStatus {
  'id'?: (string);
  'metadata'?: (_runtime_v1alpha2_PodSandboxMetadata | null);
  'state'?: (_runtime_v1alpha2_PodSandboxState);
  'created_at'?: (number | string | Long);
  'network'?: (_runtime_v1alpha2_PodSandboxNetworkStatus | null);
  'linux'?: (_runtime_v1alpha2_LinuxPodSandboxStatus | null);
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
  'runtime_handler'?: (string);
}

export interface PodSandboxStatus__Output {
  'id': (string);
  'metadata': (_runtime_v1alpha2_PodSandboxMetadata__Output | null);
  'state': (_runtime_v1alpha2_PodSandboxState__Output);
  'created_at': (string);
  'network': (_runtime_v1alpha2_PodSandboxNetworkStatus__Output | null);
  'linux': (_runtime_v1alpha2_LinuxPodSandboxStatus__Output | null);
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
  'runtime_handler': (string);
}
