// RuntimeConfig: tells kubelet which cgroup driver berth's default runtime uses, so kubelet's own
// cgroup driver can match (kubelet 1.28+ asks instead of reading its flag).
import type { RuntimeConfigRequest__Output } from '../../api/gen/runtime/v1/RuntimeConfigRequest';
import type { RuntimeConfigResponse } from '../../api/gen/runtime/v1/RuntimeConfigResponse';
import type { CriService } from './service';

export async function runtimeConfig(svc: CriService, _req: RuntimeConfigRequest__Output): Promise<RuntimeConfigResponse> {
  const cri = svc.config.cri;
  const systemd = cri.runtimes[cri.default_runtime]?.options.SystemdCgroup === true;
  return { linux: { cgroup_driver: systemd ? 'SYSTEMD' : 'CGROUPFS' } };
}
