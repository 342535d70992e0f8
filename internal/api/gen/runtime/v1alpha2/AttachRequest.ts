// Original file: api/runtime/v1alpha2/api.proto


export interface AttachRequest {
  'container_id'?: (string);
  'stdin'?: (boolean);
  'tty'?: (boolean);
  'stdout'?: (boolean);
  'stderr'?: (boolean);
}

export interface AttachRequest__Output {
  'container_id': (string);
  'stdin': (boolean);
  'tty': (boolean);
  'stdout': (boolean);
  'stderr': (boolean);
}
