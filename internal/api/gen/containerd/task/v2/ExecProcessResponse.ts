// Original file: api/containerd/task/v2/shim.proto


export interface ExecProcessResponse {
}

export interface ExecProcessResponse__Output {
}
