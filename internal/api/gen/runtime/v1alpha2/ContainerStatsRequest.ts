// Original file: api/runtime/v1alpha2/api.proto


export interface ContainerStatsRequest {
  'container_id'?: (string);
}

export interface ContainerStatsRequest__Output {
  'container_id': (string);
}
