// Original file: api/runtime/v1alpha2/api.proto

import type { Capability as _runtime_v1alpha2_Capability, Capability__Output as _runtime_v1alpha2_Capability__Output } from '../../runtime/v1alpha2/Capability';
import type { NamespaceOption as _runtime_v1alpha2_NamespaceOption, NamespaceOption__Output as _runtime_v1alpha2_NamespaceOption__Output } from '../../runtime/v1alpha2/NamespaceOption';
import type { SELinuxOption as _runtime_v1alpha2_SELinuxOption, SELinuxOption__Output as _runtime_v1alpha2_SELinuxOption__Output } from '../../runtime/v1alpha2/SELinuxOption';
import type { Int64Value as _runtime_v1alpha2_Int64Value, Int64Value__Output as _runtime_v1alpha2_Int64Value__Output } from '../../runtime/v1alpha2/Int64Value';
import type { SecurityProfile as _runtime_v1alpha2_SecurityProfile, SecurityProfile__Output as _runtime_v1alpha2_SecurityProfile__Output } from '../../runtime/v1alpha2/SecurityProfile';
import type { Long } from '@grpc/proto-loader';

export interface LinuxContainerSecurityContext {
  'capabilities'?: (_runtime_v1alpha2_Capability | null);
  'privileged'?: (boolean);
  'namespace_options'?: (_runtime_v1alpha2_NamespaceOption | null);
  'selinux_options'?: (_runtime_v1alpha2_SELinuxOption | null);
  'run_as_user'?: (_runtime_v1alpha2_Int64Value | null);
  'run_as_username'?: (string);
  'readonly_rootfs'?: (boolean);
  'supplemental_groups'?: (number | string | Long)[];
  'apparmor_profile'?: (string);
  'seccomp_profile_path'?: (string);
  'no_new_privs'?: (boolean);
  'run_as_group'?: (_runtime_v1alpha2_Int64Value | null);
  'masked_paths'?: (string)[];
  'readonly_paths'?: (string)[];
  'seccomp'?: (_runtime_v1alpha2_SecurityProfile | null);
  'apparmor'?: (_runtime_v1alpha2_SecurityProfile | null);
}

export interface LinuxContainerSecurityContext__Output {
  'capabilities': (_runtime_v1alpha2_Capability__Output | null);
  'privileged': (boolean);
  'namespace_options': (_runtime_v1alpha2_NamespaceOption__Output | null);
  'selinux_options': (_runtime_v1alpha2_SELinuxOption__Output | null);
  'run_as_user': (_runtime_v1alpha2_Int64Value__Output | null);
  'run_as_username': (string);
  'readonly_rootfs': (boolean);
  'supplemental_groups': (string)[];
  'apparmor_profile': (string);
  'seccomp_profile_path': (string);
  'no_new_privs': (boolean);
  'run_as_group': (_runtime_v1alpha2_Int64Value__Output | null);
  'masked_paths': (string)[];
  'readonly_paths': (string)[];
  'seccomp': (_runtime_v1alpha2_SecurityProfile__Output | null);
  'apparmor': (_runtime_v1alpha2_SecurityProfile__Output | null);
}
