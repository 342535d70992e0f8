// Original file: api/containerd/runc/options/oci.proto


export interface ProcessDetails {
  'exec_id'?: (string);
}

export interface ProcessDetails__Output {
  'exec_id': (string);
}
