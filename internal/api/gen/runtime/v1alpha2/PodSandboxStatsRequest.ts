// Original file: api/runtime/v1alpha2/api.proto


export interface PodSandboxStatsRequest {
  'pod_sandbox_id'?: (string);
}

export interface PodSandboxStatsRequest__Output {
  'pod_sandbox_id': (string);
}
