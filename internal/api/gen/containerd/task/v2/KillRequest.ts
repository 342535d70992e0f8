// Original file: api/containerd/task/v2/shim.proto


export interface KillRequest {
  'id'?: (string);
  'exec_id'?: (string);
  'signal'?: (number);
  'all'?: (boolean);
}

export interface KillRequest__Output {
  'id': (string);
  'exec_id': (string);
  'signal': (number);
  'all': (boolean);
}
