// Original file: api/containerd/events/task.proto


export interface TaskResumed {
  'container_id'?: (string);
}

export interface TaskResumed__Output {
  'container_id': (string);
}
