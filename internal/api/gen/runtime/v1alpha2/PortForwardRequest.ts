// Original file: api/runtime/v1alpha2/api.proto


export interface PortForwardRequest {
  'pod_sandbox_id'?: (string);
  'port'?: (number)[];
}

export interface PortForwardRequest__Output {
  'pod_sandbox_id': (string);
  'port': (number)[];
}
