// Original file: api/runtime/v1alpha2/api.proto


export interface PullImageResponse {
  'image_ref'?: (string);
}

export interface PullImageResponse__Output {
  'image_ref': (string);
}
