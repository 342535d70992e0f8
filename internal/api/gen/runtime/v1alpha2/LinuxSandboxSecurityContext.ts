// Original file: api/runtime/v1alpha2/api.proto

import type { NamespaceOption as _runtime_v1alpha2_NamespaceOption, NamespaceOption__Output as _runtime_v1alpha2_NamespaceOption__Output } from '../../runtime/v1alpha2/NamespaceOption';
import type { SELinuxOption as _runtime_v1alpha2_SELinuxOption, SELinuxOption__Output as _runtime_v1alpha2_SELinuxOption__Output } from '../../runtime/v1alpha2/SELinuxOption';
import type { Int64Value as _runtime_v1alpha2_Int64Value, Int64Value__Output as _runtime_v1alpha2_Int64Value__Output } from '../../runtime/v1alpha2/Int64Value';
import type { SecurityProfile as _runtime_v1alpha2_SecurityProfile, SecurityProfile__Output as _runtime_v1alpha2_SecurityProfile__Output } from '../../runtime/v1alpha2/SecurityProfile';
import type { Long } from '@grpc/proto-loader';

export interface LinuxSandboxSecurityContext {
  'namespace_options'?: (_runtime_v1alpha2_NamespaceOption | null);
  'selinux_options'?: (_runtime_v1alpha2_SELinuxOption | null);
  'run_as_user'?: (_runtime_v1alpha2_Int64Value | null);
  'readonly_rootfs'?: (boolean);
  'supplemental_groups'?: (number | string | Long)[];
  'privileged'?: (boolean);
  'seccomp_profile_path'?: (string);
  'run_as_group'?: (_runtime_v1alpha2_Int64Value | null);
  'seccomp'?: (_runtime_v1alpha2_SecurityProfile | null);
  'apparmor'?: (_runtime_v1alpha2_SecurityProfile | null);
}

export interface LinuxSandboxSecurityContext__Output {
  'namespace_options': (_runtime_v1alpha2_NamespaceOption__Output | null);
  'selinux_options': (_runtime_v1alpha2_SELinuxOption__Output | null);
  'run_as_user': (_runtime_v1alpha2_Int64Value__Output | null);
  'readonly_rootfs': (boolean);
  'supplemental_groups': (string)[];
  'privileged': (boolean);
  'seccomp_profile_path': (string);
  'run_as_group': (_runtime_v1alpha2_Int64Value__Output | null);
  'seccomp': (_runtime_v1alpha2_SecurityProfile__Output | null);
  'apparmor': (_runtime_v1alpha2_SecurityProfile__Output | null);
}
