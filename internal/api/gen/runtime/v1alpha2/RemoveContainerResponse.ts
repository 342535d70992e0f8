// Original file: api/runtime/v1alpha2/api.proto


export interface RemoveContainerResponse {
}

export interface RemoveContainerResponse__Output {
}
