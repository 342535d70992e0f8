// Original file: api/berth/admin/v1/admin.proto


export interface ExportImageChunk {
  'data'?: (Buffer | Uint8Array | string);
}

export interface ExportImageChunk__Output {
  'data': (Buffer);
}
