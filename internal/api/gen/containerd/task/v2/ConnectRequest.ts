// Original file: api/containerd/task/v2/shim.proto


export interface ConnectRequest {
  'id'?: (string);
}

export interface ConnectRequest__Output {
  'id': (string);
}
