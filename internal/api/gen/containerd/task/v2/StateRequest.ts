// Original file: api/containerd/task/v2/shim.proto


export interface StateRequest {
  'id'?: (string);
  'exec_id'?: (string);
}

export interface StateRequest__Output {
  'id': (string);
  'exec_id': (string);
}
