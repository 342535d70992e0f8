// Original file: api/runtime/v1/api.proto


export interface MetricDescriptor {
  'name'?: (string);
  'help'?: (string);
  'label_keys'?: (string)[];
}

export interface MetricDescriptor__Output {
  'name': (string);
  'help': (string);
  'label_keys': (string)[];
}
