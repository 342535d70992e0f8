// Original file: api/containerd/task/v2/shim.proto


export interface ShutdownRequest {
  'id'?: (string);
  'now'?: (boolean);
}

export interface ShutdownRequest__Output {
  'id': (string);
  'now': (boolean);
}
