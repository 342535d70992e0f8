// Original file: api/containerd/events/task.proto


export interface TaskIO {
  'stdin'?: (string);
  'stdout'?: (string);
  'stderr'?: (string);
  'terminal'?: (boolean);
}

export interface TaskIO__Output {
  'stdin': (string);
  'stdout': (string);
  'stderr': (string);
  'terminal': (boolean);
}
