// Original file: api/runtime/v1/api.proto


export interface CheckpointPodResponse {
}

export interface CheckpointPodResponse__Output {
}
