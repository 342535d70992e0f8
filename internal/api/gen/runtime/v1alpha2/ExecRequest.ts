// Original file: api/runtime/v1alpha2/api.proto


export interface ExecRequest {
  'container_id'?: (string);
  'cmd'?: (string)[];
  'tty'?: (boolean);
  'stdin'?: (boolean);
  'stdout'?: (boolean);
  'stderr'?: (boolean);
}

export interface ExecRequest__Output {
  'container_id': (string);
  'cmd': (string)[];
  'tty': (boolean);
  'stdin': (boolean);
  'stdout': (boolean);
  'stderr': (boolean);
}
