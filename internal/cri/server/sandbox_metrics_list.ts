// ListPodSandboxMetrics: for each Ready pod, its network counters (pod-level, as CRI-O: the pod's
// containers share its netns) and each running container's cgroup metrics, read through the same
// collector as the stats RPCs. Labels as CRI-O: a container is [id, name, image], the pod itself
// [sandbox id, "POD", ""].
import type { ContainerMetrics } from '../../api/gen/runtime/v1/ContainerMetrics';
import type { ListPodSandboxMetricsRequest__Output } from '../../api/gen/runtime/v1/ListPodSandboxMetricsRequest';
import type { ListPodSandboxMetricsResponse } from '../../api/gen/runtime/v1/ListPodSandboxMetricsResponse';
import type { PodSandboxMetrics } from '../../api/gen/runtime/v1/PodSandboxMetrics';
import { containerMetrics, podNetworkMetrics } from '../stats/cadvisor_metrics';
import { containerState, type Container } from '../store/container';
import type { Sandbox } from '../store/sandbox';
import { containerCgroupPath, statsCollector } from './container_stats';
import type { CriService } from './service';

function metricsOfContainer(svc: CriService, container: Container): ContainerMetrics | undefined {
  const sample = statsCollector(svc).containerSample({ id: container.id, cgroupPath: containerCgroupPath(svc, container) });
  if (!sample) return undefined;
  const m = container.metadata;
  return { container_id: container.id, metrics: containerMetrics([container.id, m.name, m.config.image?.image ?? ''], sample) };
}

function metricsOfPod(svc: CriService, sandbox: Sandbox): PodSandboxMetrics {
  const network = statsCollector(svc).network({ id: sandbox.id, pid: sandbox.status.pid, netnsPath: sandbox.metadata.netnsPath });
  const running = svc.rt.containers.listBySandbox(sandbox.id).filter((c) => containerState(c.status) === 'CONTAINER_RUNNING');
  return {
    pod_sandbox_id: sandbox.id,
    metrics: network ? podNetworkMetrics([sandbox.id, 'POD', ''], network.timestamp, network.counters) : [],
    container_metrics: running.map((c) => metricsOfContainer(svc, c)).filter((c) => c !== undefined),
  };
}

export async function listPodSandboxMetrics(svc: CriService, _req: ListPodSandboxMetricsRequest__Output): Promise<ListPodSandboxMetricsResponse> {
  const ready = svc.rt.sandboxes.list().filter((s) => s.status.state === 'ready');
  return { pod_metrics: ready.map((s) => metricsOfPod(svc, s)) };
}
