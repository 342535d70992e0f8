// Original file: api/runtime/v1alpha2/api.proto


export interface AttachResponse {
  'url'?: (string);
}

export interface AttachResponse__Output {
  'url': (string);
}
