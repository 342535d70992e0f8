// Original file: api/runtime/v1alpha2/api.proto


export interface WindowsPodSandboxStats {
}

export interface WindowsPodSandboxStats__Output {
}
