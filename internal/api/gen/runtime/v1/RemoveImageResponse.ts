// Original file: api/runtime/v1/api.proto


export interface RemoveImageResponse {
}

export interface RemoveImageResponse__Output {
}
