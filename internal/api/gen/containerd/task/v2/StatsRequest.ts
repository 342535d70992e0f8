// Original file: api/containerd/task/v2/shim.proto


export interface StatsRequest {
  'id'?: (string);
}

export interface StatsRequest__Output {
  'id': (string);
}
