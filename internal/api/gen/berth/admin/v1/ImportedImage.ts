// Original file: api/berth/admin/v1/admin.proto


export interface ImportedImage {
  'name'?: (string);
  'id'?: (string);
}

export interface ImportedImage__Output {
  'name': (string);
  'id': (string);
}
