// Original file: api/containerd/task/v2/shim.proto


export interface ResizePtyRequest {
  'id'?: (string);
  'exec_id'?: (string);
  'width'?: (number);
  'height'?: (number);
}

export interface ResizePtyRequest__Output {
  'id': (string);
  'exec_id': (string);
  'width': (number);
  'height': (number);
}
