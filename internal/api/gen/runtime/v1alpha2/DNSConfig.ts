// Original file: api/runtime/v1alpha2/api.proto


export interface DNSConfig {
  'servers'?: (string)[];
  'searches'?: (string)[];
  'options'?: (string)[];
}

export interface DNSConfig__Output {
  'servers': (string)[];
  'searches': (string)[];
  'options': (string)[];
}
