// Original file: api/runtime/v1alpha2/api.proto


export interface PodSandboxMetadata {
  'name'?: (string);
  'uid'?: (string);
  'namespace'?: (string);
  'attempt'?: (number);
}

export interface PodSandboxMetadata__Output {
  'name': (string);
  'uid': (string);
  'namespace': (string);
  'attempt': (number);
}
