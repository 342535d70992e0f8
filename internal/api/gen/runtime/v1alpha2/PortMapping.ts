// Original file: api/runtime/v1alpha2/api.proto

import type { Protocol as _runtime_v1alpha2_Protocol, Protocol__Output as _runtime_v1alpha2_Protocol__Output } from '../../runtime/v1alpha2/Protocol';

export interface PortMapping {
  'protocol'?: (_runtime_v1alpha2_Protocol);
  'container_port'?: (number);
  'host_port'?: (number);
  'host_ip'?: (string);
}

export interface PortMapping__Output {
  'protocol': (_runtime_v1alpha2_Protocol__Output);
  'container_port': (number);
  'host_port': (number);
  'host_ip': (string);
}
