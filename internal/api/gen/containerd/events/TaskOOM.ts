// Original file: api/containerd/events/task.proto


export interface TaskOOM {
  'container_id'?: (string);
}

export interface TaskOOM__Output {
  'container_id': (string);
}
