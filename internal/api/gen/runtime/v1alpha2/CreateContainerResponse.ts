// Original file: api/runtime/v1alpha2/api.proto


export interface CreateContainerResponse {
  'container_id'?: (string);
}

export interface CreateContainerResponse__Output {
  'container_id': (string);
}
