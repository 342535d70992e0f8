// Original file: api/runtime/v1/api.proto


export interface AttachResponse {
  'url'?: (string);
}

export interface AttachResponse__Output {
  'url': (string);
}
