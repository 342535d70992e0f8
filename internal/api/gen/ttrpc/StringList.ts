// Original file: api/ttrpc/request.proto


export interface StringList {
  'list'?: (string)[];
}

export interface StringList__Output {
  'list': (string)[];
}
