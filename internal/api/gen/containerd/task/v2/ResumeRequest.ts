// Original file: api/containerd/task/v2/shim.proto


export interface ResumeRequest {
  'id'?: (string);
}

export interface ResumeRequest__Output {
  'id': (string);
}
