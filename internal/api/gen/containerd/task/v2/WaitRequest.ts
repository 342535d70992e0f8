// Original file: api/containerd/task/v2/shim.proto


export interface WaitRequest {
  'id'?: (string);
  'exec_id'?: (string);
}

export interface WaitRequest__Output {
  'id': (string);
  'exec_id': (string);
}
