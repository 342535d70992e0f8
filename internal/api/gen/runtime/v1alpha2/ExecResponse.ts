// Original file: api/runtime/v1alpha2/api.proto


export interface ExecResponse {
  'url'?: (string);
}

export interface ExecResponse__Output {
  'url': (string);
}
