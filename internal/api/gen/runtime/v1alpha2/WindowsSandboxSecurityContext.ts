// Original file: api/runtime/v1alpha2/api.proto


export interface WindowsSandboxSecurityContext {
  'run_as_username'?: (string);
  'credential_spec'?: (string);
  'host_process'?: (boolean);
}

export interface WindowsSandboxSecurityContext__Output {
  'run_as_username': (string);
  'credential_spec': (string);
  'host_process': (boolean);
}
