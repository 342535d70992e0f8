// Original file: api/containerd/services/ttrpc/events/v1/events.proto

import type { Envelope as _containerd_types_Envelope, Envelope__Output as _containerd_types_Envelope__Output } from '../../../../../containerd/types/Envelope';

export interface ForwardRequest {
  'envelope'?: (_containerd_types_Envelope | null);
}

export interface ForwardRequest__Output {
  'envelope': (_containerd_types_Envelope__Output | null);
}
