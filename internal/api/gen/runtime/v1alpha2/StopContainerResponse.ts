// Original file: api/runtime/v1alpha2/api.proto


export interface StopContainerResponse {
}

export interface StopContainerResponse__Output {
}
