// Original file: api/runtime/v1alpha2/api.proto


export interface Device {
  'container_path'?: (string);
  'host_path'?: (string);
  'permissions'?: (string);
}

export interface Device__Output {
  'container_path': (string);
  'host_path': (string);
  'permissions': (string);
}
