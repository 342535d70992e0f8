// Original file: api/containerd/task/v2/shim.proto


export interface CloseIORequest {
  'id'?: (string);
  'exec_id'?: (string);
  'stdin'?: (boolean);
}

export interface CloseIORequest__Output {
  'id': (string);
  'exec_id': (string);
  'stdin': (boolean);
}
