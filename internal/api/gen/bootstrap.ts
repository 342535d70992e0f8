// @ts-nocheck
import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { BootstrapParams as _containerd_runtime_bootstrap_v1_BootstrapParams, BootstrapParams__Output as _containerd_runtime_bootstrap_v1_BootstrapParams__Output } from './containerd/runtime/bootstrap/v1/BootstrapParams';
import type { BootstrapResult as _containerd_runtime_bootstrap_v1_BootstrapResult, BootstrapResult__Output as _containerd_runtime_bootstrap_v1_BootstrapResult__Output } from './containerd/runtime/bootstrap/v1/BootstrapResult';
import type { Extension as _containerd_runtime_bootstrap_v1_Extension, Extension__Output as _containerd_runtime_bootstrap_v1_Extension__Output } from './containerd/runtime/bootstrap/v1/Extension';
import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from './google/protobuf/Any';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  containerd: {
    runtime: {
      bootstrap: {
        v1: {
          BootstrapParams: MessageTypeDefinition<_containerd_runtime_bootstrap_v1_BootstrapParams, _containerd_runtime_bootstrap_v1_BootstrapParams__Output>
          BootstrapResult: MessageTypeDefinition<_containerd_runtime_bootstrap_v1_BootstrapResult, _containerd_runtime_bootstrap_v1_BootstrapResult__Output>
          Capability: EnumTypeDefinition
          Extension: MessageTypeDefinition<_containerd_runtime_bootstrap_v1_Extension, _containerd_runtime_bootstrap_v1_Extension__Output>
          LogLevel: EnumTypeDefinition
        }
      }
    }
  }
  google: {
    protobuf: {
      Any: MessageTypeDefinition<_google_protobuf_Any, _google_protobuf_Any__Output>
    }
  }
}

