// Original file: api/runtime/v1/api.proto

import type { PodSandboxMetrics as _runtime_v1_PodSandboxMetrics, PodSandboxMetrics__Output as _runtime_v1_PodSandboxMetrics__Output } from '../../runtime/v1/PodSandboxMetrics';

export interface ListPodSandboxMetricsResponse {
  'pod_metrics'?: (_runtime_v1_PodSandboxMetrics)[];
}

export interface ListPodSandboxMetricsResponse__Output {
  'pod_metrics': (_runtime_v1_PodSandboxMetrics__Output)[];
}
