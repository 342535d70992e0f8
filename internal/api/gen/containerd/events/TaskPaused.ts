// Original file: api/containerd/events/task.proto


export interface TaskPaused {
  'container_id'?: (string);
}

export interface TaskPaused__Output {
  'container_id': (string);
}
