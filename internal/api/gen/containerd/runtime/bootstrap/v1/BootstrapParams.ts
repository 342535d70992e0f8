// Original file: api/containerd/runtime/bootstrap/v1/bootstrap.proto

import type { LogLevel as _containerd_runtime_bootstrap_v1_LogLevel, LogLevel__Output as _containerd_runtime_bootstrap_v1_LogLevel__Output } from '../../../../containerd/runtime/bootstrap/v1/LogLevel';
import type { Extension as _containerd_runtime_bootstrap_v1_Extension, Extension__Output as _containerd_runtime_bootstrap_v1_Extension__Output } from '../../../../containerd/runtime/bootstrap/v1/Extension';

export interface BootstrapParams {
  'instance_id'?: (string);
  'namespace'?: (string);
  'log_level'?: (_containerd_runtime_bootstrap_v1_LogLevel);
  'containerd_version'?: (string);
  'containerd_ttrpc_address'?: (string);
  'containerd_grpc_address'?: (string);
  'containerd_binary'?: (string);
  'extensions'?: (_containerd_runtime_bootstrap_v1_Extension)[];
  'socket_dir'?: (string);
  '_socket_dir'?: "socket_dir";
}

export interface BootstrapParams__Output {
  'instance_id': (string);
  'namespace': (string);
  'log_level': (_containerd_runtime_bootstrap_v1_LogLevel__Output);
  'containerd_version': (string);
  'containerd_ttrpc_address': (string);
  'containerd_grpc_address': (string);
  'containerd_binary': (string);
  'extensions': (_containerd_runtime_bootstrap_v1_Extension__Output)[];
  'socket_dir'?: (string);
  '_socket_dir'?: "socket_dir";
}
