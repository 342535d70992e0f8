// Original file: api/berth/admin/v1/admin.proto


export interface DiskUsageRequest {
}

export interface DiskUsageRequest__Output {
}
