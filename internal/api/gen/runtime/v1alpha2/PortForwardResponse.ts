// Original file: api/runtime/v1alpha2/api.proto


export interface PortForwardResponse {
  'url'?: (string);
}

export interface PortForwardResponse__Output {
  'url': (string);
}
