// Original file: api/containerd/task/v2/shim.proto


export interface PidsRequest {
  'id'?: (string);
}

export interface PidsRequest__Output {
  'id': (string);
}
