// @ts-nocheck
import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { EventsClient as _containerd_services_events_ttrpc_v1_EventsClient, EventsDefinition as _containerd_services_events_ttrpc_v1_EventsDefinition } from './containerd/services/events/ttrpc/v1/Events';
import type { ForwardRequest as _containerd_services_events_ttrpc_v1_ForwardRequest, ForwardRequest__Output as _containerd_services_events_ttrpc_v1_ForwardRequest__Output } from './containerd/services/events/ttrpc/v1/ForwardRequest';
import type { ActivationInfo as _containerd_types_ActivationInfo, ActivationInfo__Output as _containerd_types_ActivationInfo__Output } from './containerd/types/ActivationInfo';
import type { ActiveMount as _containerd_types_ActiveMount, ActiveMount__Output as _containerd_types_ActiveMount__Output } from './containerd/types/ActiveMount';
import type { Envelope as _containerd_types_Envelope, Envelope__Output as _containerd_types_Envelope__Output } from './containerd/types/Envelope';
import type { Mount as _containerd_types_Mount, Mount__Output as _containerd_types_Mount__Output } from './containerd/types/Mount';
import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from './google/protobuf/Any';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from './google/protobuf/Empty';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  containerd: {
    services: {
      events: {
        ttrpc: {
          v1: {
            Events: SubtypeConstructor<typeof grpc.Client, _containerd_services_events_ttrpc_v1_EventsClient> & { service: _containerd_services_events_ttrpc_v1_EventsDefinition }
            ForwardRequest: MessageTypeDefinition<_containerd_services_events_ttrpc_v1_ForwardRequest, _containerd_services_events_ttrpc_v1_ForwardRequest__Output>
          }
        }
      }
    }
    types: {
      ActivationInfo: MessageTypeDefinition<_containerd_types_ActivationInfo, _containerd_types_ActivationInfo__Output>
      ActiveMount: MessageTypeDefinition<_containerd_types_ActiveMount, _containerd_types_ActiveMount__Output>
      Envelope: MessageTypeDefinition<_containerd_types_Envelope, _containerd_types_Envelope__Output>
      Mount: MessageTypeDefinition<_containerd_types_Mount, _containerd_types_Mount__Output>
    }
  }
  google: {
    protobuf: {
      Any: MessageTypeDefinition<_google_protobuf_Any, _google_protobuf_Any__Output>
      Empty: MessageTypeDefinition<_google_protobuf_Empty, _google_protobuf_Empty__Output>
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
    }
  }
}

