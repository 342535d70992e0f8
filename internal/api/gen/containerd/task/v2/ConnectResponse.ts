// Original file: api/containerd/task/v2/shim.proto


export interface ConnectResponse {
  'shim_pid'?: (number);
  'task_pid'?: (number);
  'version'?: (string);
}

export interface ConnectResponse__Output {
  'shim_pid': (number);
  'task_pid': (number);
  'version': (string);
}
