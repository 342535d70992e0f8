// Original file: api/runtime/v1alpha2/api.proto


export interface StartContainerResponse {
}

export interface StartContainerResponse__Output {
}
