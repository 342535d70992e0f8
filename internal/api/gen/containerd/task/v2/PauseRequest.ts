// Original file: api/containerd/task/v2/shim.proto


export interface PauseRequest {
  'id'?: (string);
}

export interface PauseRequest__Output {
  'id': (string);
}
