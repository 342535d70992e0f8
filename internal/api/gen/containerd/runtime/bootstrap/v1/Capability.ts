// Original file: api/containerd/runtime/bootstrap/v1/bootstrap.proto

export const Capability = {
  CAPABILITY_UNSPECIFIED: 'CAPABILITY_UNSPECIFIED',
} as const;

export type Capability =
  | 'CAPABILITY_UNSPECIFIED'
  | 0

export type Capability__Output = typeof Capability[keyof typeof Capability]
