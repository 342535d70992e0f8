// Original file: api/containerd/runc/options/oci.proto


export interface Options {
  'no_pivot_root'?: (boolean);
  'no_new_keyring'?: (boolean);
  'shim_cgroup'?: (string);
  'io_uid'?: (number);
  'io_gid'?: (number);
  'binary_name'?: (string);
  'root'?: (string);
  'systemd_cgroup'?: (boolean);
  'criu_image_path'?: (string);
  'criu_work_path'?: (string);
  'task_api_address'?: (string);
  'task_api_version'?: (number);
}

export interface Options__Output {
  'no_pivot_root': (boolean);
  'no_new_keyring': (boolean);
  'shim_cgroup': (string);
  'io_uid': (number);
  'io_gid': (number);
  'binary_name': (string);
  'root': (string);
  'systemd_cgroup': (boolean);
  'criu_image_path': (string);
  'criu_work_path': (string);
  'task_api_address': (string);
  'task_api_version': (number);
}
