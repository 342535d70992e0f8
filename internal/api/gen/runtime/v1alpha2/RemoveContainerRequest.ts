// Original file: api/runtime/v1alpha2/api.proto


export interface RemoveContainerRequest {
  'container_id'?: (string);
}

export interface RemoveContainerRequest__Output {
  'container_id': (string);
}
