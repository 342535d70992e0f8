// Original file: api/containerd/events/task.proto


export interface TaskExecAdded {
  'container_id'?: (string);
  'exec_id'?: (string);
}

export interface TaskExecAdded__Output {
  'container_id': (string);
  'exec_id': (string);
}
