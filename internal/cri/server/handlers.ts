// Every CRI and admin handler berthd serves, in one list. A new RPC file exports its handler and
// gets one line here; anything not listed answers UNIMPLEMENTED.
import { diskUsage } from './admin_du';
import { exportImage } from './admin_export';
import { garbageCollect } from './admin_gc';
import { importImage } from './admin_import';
import { listIngests } from './admin_ingests';
import { createContainer } from './container_create';
import { getContainerEvents } from './container_events';
import { attach, exec, portForward } from './container_exec';
import { execSync } from './container_execsync';
import { listContainers } from './container_list';
import { reopenContainerLog } from './container_log_reopen';
import { removeContainer } from './container_remove';
import { startContainer } from './container_start';
import { containerStats } from './container_stats';
import { listContainerStats } from './container_stats_list';
import { containerStatus } from './container_status';
import { stopContainer } from './container_stop';
import { updateContainerResources } from './container_update_resources';
import { imageFsInfo } from './image_fs_info';
import { listImages } from './image_list';
import { pullImage } from './image_pull';
import { removeImage } from './image_remove';
import { imageStatus } from './image_status';
import { listMetricDescriptors } from './metric_descriptors_list';
import { HandlerRegistry } from './registry';
import { runtimeConfig } from './runtime_config';
import { listPodSandbox } from './sandbox_list';
import { removePodSandbox } from './sandbox_remove';
import { runPodSandbox } from './sandbox_run';
import { listPodSandboxMetrics } from './sandbox_metrics_list';
import { podSandboxStats } from './sandbox_stats';
import { listPodSandboxStats } from './sandbox_stats_list';
import { podSandboxStatus } from './sandbox_status';
import { stopPodSandbox } from './sandbox_stop';
import { status } from './status';
import { updateRuntimeConfig } from './update_runtime_config';
import { version } from './version';

export function berthHandlers(): HandlerRegistry {
  return new HandlerRegistry()
    .register('RuntimeService', {
      Version: version,
      Status: status,
      RuntimeConfig: runtimeConfig,
      UpdateRuntimeConfig: updateRuntimeConfig,
      RunPodSandbox: runPodSandbox,
      StopPodSandbox: stopPodSandbox,
      RemovePodSandbox: removePodSandbox,
      PodSandboxStatus: podSandboxStatus,
      ListPodSandbox: listPodSandbox,
      CreateContainer: createContainer,
      StartContainer: startContainer,
      StopContainer: stopContainer,
      RemoveContainer: removeContainer,
      ContainerStatus: containerStatus,
      ListContainers: listContainers,
      UpdateContainerResources: updateContainerResources,
      ReopenContainerLog: reopenContainerLog,
      ExecSync: execSync,
      Exec: exec,
      Attach: attach,
      PortForward: portForward,
      GetContainerEvents: getContainerEvents,
      ContainerStats: containerStats,
      ListContainerStats: listContainerStats,
      PodSandboxStats: podSandboxStats,
      ListPodSandboxStats: listPodSandboxStats,
      ListMetricDescriptors: listMetricDescriptors,
      ListPodSandboxMetrics: listPodSandboxMetrics,
    })
    .register('ImageService', {
      PullImage: pullImage,
      ImageStatus: imageStatus,
      ListImages: listImages,
      RemoveImage: removeImage,
      ImageFsInfo: imageFsInfo,
    })
    .register('Admin', {
      ImportImage: importImage,
      ExportImage: exportImage,
      GarbageCollect: garbageCollect,
      DiskUsage: diskUsage,
      ListIngests: listIngests,
    });
}
