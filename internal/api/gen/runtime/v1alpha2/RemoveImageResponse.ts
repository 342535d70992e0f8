// Original file: api/runtime/v1alpha2/api.proto


export interface RemoveImageResponse {
}

export interface RemoveImageResponse__Output {
}
