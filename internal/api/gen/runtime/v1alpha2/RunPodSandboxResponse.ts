// Original file: api/runtime/v1alpha2/api.proto


export interface RunPodSandboxResponse {
  'pod_sandbox_id'?: (string);
}

export interface RunPodSandboxResponse__Output {
  'pod_sandbox_id': (string);
}
