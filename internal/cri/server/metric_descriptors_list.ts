// ListMetricDescriptors: what ListPodSandboxMetrics answers, by name, help and label keys; kubelet
// reads it once and builds its /metrics/cadvisor descriptors from it.
import type { ListMetricDescriptorsRequest__Output } from '../../api/gen/runtime/v1/ListMetricDescriptorsRequest';
import type { ListMetricDescriptorsResponse } from '../../api/gen/runtime/v1/ListMetricDescriptorsResponse';
import { metricDescriptors } from '../stats/cadvisor_metrics';
import type { CriService } from './service';

export async function listMetricDescriptors(_svc: CriService, _req: ListMetricDescriptorsRequest__Output): Promise<ListMetricDescriptorsResponse> {
  return { descriptors: metricDescriptors() };
}
