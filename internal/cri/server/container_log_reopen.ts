// ReopenContainerLog: kubelet rotated a running container's log file away; writing resumes in a new
// file at the same path. Only a running container has a log writer to reopen.
import type { ReopenContainerLogRequest__Output } from '../../api/gen/runtime/v1/ReopenContainerLogRequest';
import type { ReopenContainerLogResponse } from '../../api/gen/runtime/v1/ReopenContainerLogResponse';
import { failedPrecondition, wrap } from '../../errdefs/errors';
import { containerIOs } from '../container_io';
import { containerState } from '../store/container';
import type { CriService } from './service';

export async function reopenContainerLog(svc: CriService, req: ReopenContainerLogRequest__Output): Promise<ReopenContainerLogResponse> {
  const rt = svc.rt;
  const container = rt.containers.get(req.container_id);
  const state = containerState(container.status);
  if (state !== 'CONTAINER_RUNNING') throw failedPrecondition(`container ${container.id} is not running (${state})`);
  const io = containerIOs(rt.containers).get(container.id);
  if (!io) throw failedPrecondition(`container ${container.id} has no attached IO (its output is not being read)`);
  try {
    io.reopenLog();
  } catch (err) {
    throw wrap(err, `reopen log of container ${container.id} at ${JSON.stringify(container.metadata.logPath)}`);
  }
  return {};
}
