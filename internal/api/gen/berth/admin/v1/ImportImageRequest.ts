// Original file: api/berth/admin/v1/admin.proto


export interface ImportImageRequest {
  'path'?: (string);
  'name'?: (string);
}

export interface ImportImageRequest__Output {
  'path': (string);
  'name': (string);
}
