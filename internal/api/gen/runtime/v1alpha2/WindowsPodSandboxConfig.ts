// Original file: api/runtime/v1alpha2/api.proto

import type { WindowsSandboxSecurityContext as _runtime_v1alpha2_WindowsSandboxSecurityContext, WindowsSandboxSecurityContext__Output as _runtime_v1alpha2_WindowsSandboxSecurityContext__Output } from '../../runtime/v1alpha2/WindowsSandboxSecurityContext';

export interface WindowsPodSandboxConfig {
  'security_context'?: (_runtime_v1alpha2_WindowsSandboxSecurityContext | null);
}

export interface WindowsPodSandboxConfig__Output {
  'security_context': (_runtime_v1alpha2_WindowsSandboxSecurityContext__Output | null);
}
