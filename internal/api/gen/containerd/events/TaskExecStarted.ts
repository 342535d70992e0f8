// Original file: api/containerd/events/task.proto


export interface TaskExecStarted {
  'container_id'?: (string);
  'exec_id'?: (string);
  'pid'?: (number);
}

export interface TaskExecStarted__Output {
  'container_id': (string);
  'exec_id': (string);
  'pid': (number);
}
