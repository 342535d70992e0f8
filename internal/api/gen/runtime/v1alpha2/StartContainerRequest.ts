// Original file: api/runtime/v1alpha2/api.proto


export interface StartContainerRequest {
  'container_id'?: (string);
}

export interface StartContainerRequest__Output {
  'container_id': (string);
}
