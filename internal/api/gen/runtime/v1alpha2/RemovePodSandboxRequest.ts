// Original file: api/runtime/v1alpha2/api.proto


export interface RemovePodSandboxRequest {
  'pod_sandbox_id'?: (string);
}

export interface RemovePodSandboxRequest__Output {
  'pod_sandbox_id': (string);
}
