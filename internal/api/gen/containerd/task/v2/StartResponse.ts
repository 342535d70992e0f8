// Original file: api/containerd/task/v2/shim.proto


export interface StartResponse {
  'pid'?: (number);
}

export interface StartResponse__Output {
  'pid': (number);
}
