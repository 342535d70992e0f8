// UpdateRuntimeConfig: kubelet sends the node's pod CIDR. containerd only uses it to render a CNI
// config template when one is configured; berth has no template, so like containerd without one it
// accepts the update and changes nothing (the CNI config in conf_dir decides the pod network).
import type { UpdateRuntimeConfigRequest__Output } from '../../api/gen/runtime/v1/UpdateRuntimeConfigRequest';
import type { UpdateRuntimeConfigResponse } from '../../api/gen/runtime/v1/UpdateRuntimeConfigResponse';
import type { CriService } from './service';

export async function updateRuntimeConfig(
  svc: CriService,
  req: UpdateRuntimeConfigRequest__Output,
): Promise<UpdateRuntimeConfigResponse> {
  const podCidr = req.runtime_config?.network_config?.pod_cidr ?? '';
  svc.logger.info('runtime config update: no CNI config template, pod CIDR not applied', { podCidr });
  return {};
}
