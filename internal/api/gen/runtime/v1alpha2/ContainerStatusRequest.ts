// Original file: api/runtime/v1alpha2/api.proto


export interface ContainerStatusRequest {
  'container_id'?: (string);
  'verbose'?: (boolean);
}

export interface ContainerStatusRequest__Output {
  'container_id': (string);
  'verbose': (boolean);
}
