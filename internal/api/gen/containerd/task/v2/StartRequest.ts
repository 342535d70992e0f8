// Original file: api/containerd/task/v2/shim.proto


export interface StartRequest {
  'id'?: (string);
  'exec_id'?: (string);
}

export interface StartRequest__Output {
  'id': (string);
  'exec_id': (string);
}
