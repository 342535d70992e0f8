// PodSandboxStatus: the pod's state, IPs and namespaces from the store; `verbose` adds the
// details crictl inspectp shows (pid, netns, image, runtime, the pause spec, the CNI result and the
// sandbox metadata), with containerd's info keys and shapes.
import { existsSync } from 'node:fs';
import type { PodSandboxStatusRequest__Output } from '../../api/gen/runtime/v1/PodSandboxStatusRequest';
import type { PodSandboxStatusResponse } from '../../api/gen/runtime/v1/PodSandboxStatusResponse';
import type { PodSandboxStatus } from '../../api/gen/runtime/v1/PodSandboxStatus';
import { reportedRuntimeHandler, type Sandbox, type SandboxMetadata } from '../store/sandbox';
import type { CriService } from './service';

export function criSandboxState(sandbox: Sandbox): 'SANDBOX_READY' | 'SANDBOX_NOTREADY' {
  return sandbox.status.state === 'ready' ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY';
}

/** Whether the pod's network namespace is gone (StopPodSandbox removes it); false for host network. */
function netnsClosed(sandbox: Sandbox): boolean {
  const path = sandbox.metadata.netnsPath;
  return path !== '' && !existsSync(path);
}

/**
 * The pod's IPs as containerd's getIPs reports them: none for a host-network pod (not ours to
 * report) and none once the namespace is closed, so a stopped pod's old address is never shown.
 */
function podIps(sandbox: Sandbox): { ip: string; additionalIps: string[] } {
  const { metadata: m } = sandbox;
  const hostNetwork = m.config.linux?.security_context?.namespace_options?.network === 'NODE';
  if (hostNetwork || netnsClosed(sandbox)) return { ip: '', additionalIps: [] };
  return { ip: m.ip, additionalIps: m.additionalIps };
}

export function toCriSandboxStatus(sandbox: Sandbox): PodSandboxStatus {
  const { metadata: m } = sandbox;
  const ips = podIps(sandbox);
  return {
    id: sandbox.id,
    metadata: m.config.metadata,
    state: criSandboxState(sandbox),
    created_at: sandbox.status.createdAt,
    network: {
      ip: ips.ip,
      additional_ips: ips.additionalIps.map((ip) => ({ ip })),
    },
    linux: { namespaces: { options: m.config.linux?.security_context?.namespace_options ?? {} } },
    labels: m.config.labels,
    annotations: m.config.annotations,
    runtime_handler: reportedRuntimeHandler(m),
  };
}

/** The CNI result as containerd marshals go-cni's Result (Go field names, nil slices as null). */
function goCniResult(result: SandboxMetadata['cniResult']): unknown {
  if (result === undefined) return null;
  const interfaces = Object.entries(result.interfaces).map(([name, c]) => [
    name,
    {
      IPConfigs: c.ipConfigs.length === 0 ? null : c.ipConfigs.map((ip) => ({ IP: ip.ip, Gateway: ip.gateway ?? '' })),
      Mac: c.mac ?? '',
      Sandbox: c.sandbox ?? '',
    },
  ]);
  return {
    Interfaces: Object.fromEntries(interfaces),
    DNS: result.dns.length === 0 ? null : result.dns,
    Routes: result.routes.length === 0 ? null : result.routes,
  };
}

/** containerd's sandbox store Metadata as it persists it (versioned). */
function goSandboxMetadata(m: SandboxMetadata): unknown {
  return {
    Version: 'v1',
    Metadata: {
      ID: m.id,
      Name: m.name,
      Config: m.config,
      NetNSPath: m.netnsPath,
      IP: m.ip,
      AdditionalIPs: m.additionalIps.length === 0 ? null : m.additionalIps,
      RuntimeHandler: reportedRuntimeHandler(m),
      CNIResult: goCniResult(m.cniResult),
      ProcessLabel: '',
    },
  };
}

/** The pause task's status as containerd reports it: "deleted" once StopPodSandbox deleted the task. */
function processStatus(svc: CriService, sandbox: Sandbox): string {
  if (sandbox.status.state === 'unknown') return 'unknown';
  if (svc.rt.tasks.get(sandbox.id) === undefined) return 'deleted';
  return sandbox.status.state === 'ready' ? 'running' : 'stopped';
}

export async function podSandboxStatus(
  svc: CriService,
  req: PodSandboxStatusRequest__Output,
): Promise<PodSandboxStatusResponse> {
  const sandbox = svc.rt.sandboxes.get(req.pod_sandbox_id);
  const response: PodSandboxStatusResponse = { status: toCriSandboxStatus(sandbox), info: {} };
  if (req.verbose) {
    const { metadata: m, status: s } = sandbox;
    response.info = {
      info: JSON.stringify({
        pid: s.pid,
        processStatus: processStatus(svc, sandbox),
        netNamespaceClosed: netnsClosed(sandbox),
        netns: m.netnsPath,
        image: m.image,
        imageId: m.imageId,
        snapshotKey: m.snapshotKey,
        snapshotter: 'overlayfs',
        runtimeHandler: reportedRuntimeHandler(m),
        runtimeType: m.runtimeType,
        cgroupParent: m.cgroupParent,
        exitStatus: s.exitStatus,
        exitedAt: s.exitedAt,
        config: m.config,
        runtimeSpec: m.runtimeSpec ?? null,
        cniResult: goCniResult(m.cniResult),
        sandboxMetadata: goSandboxMetadata(m),
      }),
    };
  }
  return response;
}
