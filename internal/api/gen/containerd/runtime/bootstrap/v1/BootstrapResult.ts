// Original file: api/containerd/runtime/bootstrap/v1/bootstrap.proto

import type { Capability as _containerd_runtime_bootstrap_v1_Capability, Capability__Output as _containerd_runtime_bootstrap_v1_Capability__Output } from '../../../../containerd/runtime/bootstrap/v1/Capability';

export interface BootstrapResult {
  'version'?: (number);
  'address'?: (string);
  'protocol'?: (string);
  'capabilities'?: (_containerd_runtime_bootstrap_v1_Capability)[];
  'metadata'?: ({[key: string]: string});
}

export interface BootstrapResult__Output {
  'version': (number);
  'address': (string);
  'protocol': (string);
  'capabilities': (_containerd_runtime_bootstrap_v1_Capability__Output)[];
  'metadata': ({[key: string]: string});
}
