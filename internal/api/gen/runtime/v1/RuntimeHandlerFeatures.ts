// Original file: api/runtime/v1/api.proto


export interface RuntimeHandlerFeatures {
  'recursive_read_only_mounts'?: (boolean);
  'user_namespaces'?: (boolean);
}

export interface RuntimeHandlerFeatures__Output {
  'recursive_read_only_mounts': (boolean);
  'user_namespaces': (boolean);
}
