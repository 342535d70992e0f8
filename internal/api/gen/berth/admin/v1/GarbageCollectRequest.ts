// Original file: api/berth/admin/v1/admin.proto


export interface GarbageCollectRequest {
}

export interface GarbageCollectRequest__Output {
}
