// Original file: api/containerd/task/v2/shim.proto


export interface CreateTaskResponse {
  'pid'?: (number);
}

export interface CreateTaskResponse__Output {
  'pid': (number);
}
