// Exec / Attach / PortForward: validate, then hand out a single-use URL on the streaming server
// (the client connects there with SPDY or WebSocket), as containerd and kubelet's streaming do. The
// server listens from the first of these calls unless its address or port was chosen (runtime_deps.ts).
import type { AttachRequest__Output } from '../../api/gen/runtime/v1/AttachRequest';
import type { AttachResponse } from '../../api/gen/runtime/v1/AttachResponse';
import type { ExecRequest__Output } from '../../api/gen/runtime/v1/ExecRequest';
import type { ExecResponse } from '../../api/gen/runtime/v1/ExecResponse';
import type { PortForwardRequest__Output } from '../../api/gen/runtime/v1/PortForwardRequest';
import type { PortForwardResponse } from '../../api/gen/runtime/v1/PortForwardResponse';
import { failedPrecondition, invalidArgument } from '../../errdefs/errors';
import type { CriService } from './service';
import { runningTask } from '../exec_process';

function runningContainerId(svc: CriService, idOrPrefix: string): string {
  return runningTask(svc.rt, idOrPrefix).container.id;
}

export async function exec(svc: CriService, req: ExecRequest__Output): Promise<ExecResponse> {
  if (req.cmd.length === 0) throw invalidArgument('exec: cmd is required');
  const id = runningContainerId(svc, req.container_id);
  await svc.rt.streaming.whenListening();
  return { url: svc.rt.streaming.getExec({ ...req, container_id: id }) };
}

export async function attach(svc: CriService, req: AttachRequest__Output): Promise<AttachResponse> {
  const id = runningContainerId(svc, req.container_id);
  await svc.rt.streaming.whenListening();
  return { url: svc.rt.streaming.getAttach({ ...req, container_id: id }) };
}

export async function portForward(svc: CriService, req: PortForwardRequest__Output): Promise<PortForwardResponse> {
  const sandbox = svc.rt.sandboxes.get(req.pod_sandbox_id);
  if (sandbox.status.state !== 'ready') throw failedPrecondition(`sandbox ${sandbox.id} is not ready`);
  await svc.rt.streaming.whenListening();
  return { url: svc.rt.streaming.getPortForward({ ...req, pod_sandbox_id: sandbox.id }) };
}
