// Original file: api/containerd/events/task.proto


export interface TaskCheckpointed {
  'container_id'?: (string);
  'checkpoint'?: (string);
}

export interface TaskCheckpointed__Output {
  'container_id': (string);
  'checkpoint': (string);
}
