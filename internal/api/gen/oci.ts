// @ts-nocheck
import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CheckpointOptions as _containerd_runc_v1_CheckpointOptions, CheckpointOptions__Output as _containerd_runc_v1_CheckpointOptions__Output } from './containerd/runc/v1/CheckpointOptions';
import type { Options as _containerd_runc_v1_Options, Options__Output as _containerd_runc_v1_Options__Output } from './containerd/runc/v1/Options';
import type { ProcessDetails as _containerd_runc_v1_ProcessDetails, ProcessDetails__Output as _containerd_runc_v1_ProcessDetails__Output } from './containerd/runc/v1/ProcessDetails';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  containerd: {
    runc: {
      v1: {
        CheckpointOptions: MessageTypeDefinition<_containerd_runc_v1_CheckpointOptions, _containerd_runc_v1_CheckpointOptions__Output>
        Options: MessageTypeDefinition<_containerd_runc_v1_Options, _containerd_runc_v1_Options__Output>
        ProcessDetails: MessageTypeDefinition<_containerd_runc_v1_ProcessDetails, _containerd_runc_v1_ProcessDetails__Output>
      }
    }
  }
}

