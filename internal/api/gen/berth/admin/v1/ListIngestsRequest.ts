// Original file: api/berth/admin/v1/admin.proto


export interface ListIngestsRequest {
}

export interface ListIngestsRequest__Output {
}
