// Original file: api/berth/admin/v1/admin.proto


export interface ExportImageRequest {
  'image'?: (string);
}

export interface ExportImageRequest__Output {
  'image': (string);
}
