// Original file: api/runtime/v1alpha2/api.proto

import type { ContainerMetadata as _runtime_v1alpha2_ContainerMetadata, ContainerMetadata__Output as _runtime_v1alpha2_ContainerMetadata__Output } from '../../runtime/v1alpha2/ContainerMetadata';
import type { ImageSpec as _runtime_v1alpha2_ImageSpec, ImageSpec__Output as _runtime_v1alpha2_ImageSpec__Output } from '../../runtime/v1alpha2/ImageSpec';
import type { KeyValue as _runtime_v1alpha2_KeyValue, KeyValue__Output as _runtime_v1alpha2_KeyValue__Output } from '../../runtime/v1alpha2/KeyValue';
import type { Mount as _runtime_v1alpha2_Mount, Mount__Output as _runtime_v1alpha2_Mount__Output } from '../../runtime/v1alpha2/Mount';
import type { Device as _runtime_v1alpha2_Device, Device__Output as _runtime_v1alpha2_Device__Output } from '../../runtime/v1alpha2/Device';
import type { LinuxContainerConfig as _runtime_v1alpha2_LinuxContainerConfig, LinuxContainerConfig__Output as _runtime_v1alpha2_LinuxContainerConfig__Output } from '../../runtime/v1alpha2/LinuxContainerConfig';
import type { WindowsContainerConfig as _runtime_v1alpha2_WindowsContainerConfig, WindowsContainerConfig__Output as _runtime_v1alpha2_WindowsContainerConfig__Output } from '../../runtime/v1alpha2/WindowsContainerConfig';

export interface ContainerConfig {
  'metadata'?: (_runtime_v1alpha2_ContainerMetadata | null);
  'image'?: (_runtime_v1alpha2_ImageSpec | null);
  'command'?: (string)[];
  'args'?: (string)[];
  'working_dir'?: (string);
  'envs'?: (_runtime_v1alpha2_KeyValue)[];
  'mounts'?: (_runtime_v1alpha2_Mount)[];
  'devices'?: (_runtime_v1alpha2_Device)[];
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
  'log_path'?: (string);
  'stdin'?: (boolean);
  'stdin_once'?: (boolean);
  'tty'?: (boolean);
  'linux'?: (_runtime_v1alpha2_LinuxContainerConfig | null);
  'windows'?: (_runtime_v1alpha2_WindowsContainerConfig | null);
}

export interface ContainerConfig__Output {
  'metadata': (_runtime_v1alpha2_ContainerMetadata__Output | null);
  'image': (_runtime_v1alpha2_ImageSpec__Output | null);
  'command': (string)[];
  'args': (string)[];
  'working_dir': (string);
  'envs': (_runtime_v1alpha2_KeyValue__Output)[];
  'mounts': (_runtime_v1alpha2_Mount__Output)[];
  'devices': (_runtime_v1alpha2_Device__Output)[];
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
  'log_path': (string);
  'stdin': (boolean);
  'stdin_once': (boolean);
  'tty': (boolean);
  'linux': (_runtime_v1alpha2_LinuxContainerConfig__Output | null);
  'windows': (_runtime_v1alpha2_WindowsContainerConfig__Output | null);
}
