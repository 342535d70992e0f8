// Original file: api/containerd/task/v2/shim.proto


export interface DeleteRequest {
  'id'?: (string);
  'exec_id'?: (string);
}

export interface DeleteRequest__Output {
  'id': (string);
  'exec_id': (string);
}
