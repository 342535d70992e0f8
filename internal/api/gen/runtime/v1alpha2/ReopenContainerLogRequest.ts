// Original file: api/runtime/v1alpha2/api.proto


export interface ReopenContainerLogRequest {
  'container_id'?: (string);
}

export interface ReopenContainerLogRequest__Output {
  'container_id': (string);
}
