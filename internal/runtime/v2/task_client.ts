// Typed client for containerd.task.v2.Task over one ttRPC connection. Request and response shapes
// are the generated types (keepCase); this file only pairs each method with its codecs.
import { boundedBy } from '../../deadline/bounded';
import { codec, type MessageCodec } from '../../api/containerd';
import type { CloseIORequest } from '../../api/gen/containerd/task/v2/CloseIORequest';
import type { ConnectRequest } from '../../api/gen/containerd/task/v2/ConnectRequest';
import type { ConnectResponse__Output } from '../../api/gen/containerd/task/v2/ConnectResponse';
import type { CreateTaskRequest } from '../../api/gen/containerd/task/v2/CreateTaskRequest';
import type { CreateTaskResponse__Output } from '../../api/gen/containerd/task/v2/CreateTaskResponse';
import type { DeleteRequest } from '../../api/gen/containerd/task/v2/DeleteRequest';
import type { DeleteResponse__Output } from '../../api/gen/containerd/task/v2/DeleteResponse';
import type { ExecProcessRequest } from '../../api/gen/containerd/task/v2/ExecProcessRequest';
import type { KillRequest } from '../../api/gen/containerd/task/v2/KillRequest';
import type { PauseRequest } from '../../api/gen/containerd/task/v2/PauseRequest';
import type { PidsRequest } from '../../api/gen/containerd/task/v2/PidsRequest';
import type { PidsResponse__Output } from '../../api/gen/containerd/task/v2/PidsResponse';
import type { ResizePtyRequest } from '../../api/gen/containerd/task/v2/ResizePtyRequest';
import type { ResumeRequest } from '../../api/gen/containerd/task/v2/ResumeRequest';
import type { ShutdownRequest } from '../../api/gen/containerd/task/v2/ShutdownRequest';
import type { StartRequest } from '../../api/gen/containerd/task/v2/StartRequest';
import type { StartResponse__Output } from '../../api/gen/containerd/task/v2/StartResponse';
import type { StateRequest } from '../../api/gen/containerd/task/v2/StateRequest';
import type { StateResponse__Output } from '../../api/gen/containerd/task/v2/StateResponse';
import type { StatsRequest } from '../../api/gen/containerd/task/v2/StatsRequest';
import type { StatsResponse__Output } from '../../api/gen/containerd/task/v2/StatsResponse';
import type { UpdateTaskRequest } from '../../api/gen/containerd/task/v2/UpdateTaskRequest';
import type { WaitRequest } from '../../api/gen/containerd/task/v2/WaitRequest';
import type { WaitResponse__Output } from '../../api/gen/containerd/task/v2/WaitResponse';
import type { CallOptions, TtrpcClient } from '../../ttrpc/client';

export const TASK_SERVICE = 'containerd.task.v2.Task';

type Empty = Record<string, never>;

function method<In, Out>(name: string, request: string, response: string) {
  const req = codec<In, unknown>(`containerd.task.v2.${request}`);
  const res: MessageCodec<unknown, Out> = codec<unknown, Out>(response.includes('.') ? response : `containerd.task.v2.${response}`);
  return async (client: TtrpcClient, input: In, opts?: CallOptions): Promise<Out> =>
    res.decode(await client.call(TASK_SERVICE, name, req.encode(input), opts));
}

const EMPTY = 'google.protobuf.Empty';

const calls = {
  State: method<StateRequest, StateResponse__Output>('State', 'StateRequest', 'StateResponse'),
  Create: method<CreateTaskRequest, CreateTaskResponse__Output>('Create', 'CreateTaskRequest', 'CreateTaskResponse'),
  Start: method<StartRequest, StartResponse__Output>('Start', 'StartRequest', 'StartResponse'),
  Delete: method<DeleteRequest, DeleteResponse__Output>('Delete', 'DeleteRequest', 'DeleteResponse'),
  Pids: method<PidsRequest, PidsResponse__Output>('Pids', 'PidsRequest', 'PidsResponse'),
  Pause: method<PauseRequest, Empty>('Pause', 'PauseRequest', EMPTY),
  Resume: method<ResumeRequest, Empty>('Resume', 'ResumeRequest', EMPTY),
  Kill: method<KillRequest, Empty>('Kill', 'KillRequest', EMPTY),
  Exec: method<ExecProcessRequest, Empty>('Exec', 'ExecProcessRequest', EMPTY),
  ResizePty: method<ResizePtyRequest, Empty>('ResizePty', 'ResizePtyRequest', EMPTY),
  CloseIO: method<CloseIORequest, Empty>('CloseIO', 'CloseIORequest', EMPTY),
  Update: method<UpdateTaskRequest, Empty>('Update', 'UpdateTaskRequest', EMPTY),
  Wait: method<WaitRequest, WaitResponse__Output>('Wait', 'WaitRequest', 'WaitResponse'),
  Stats: method<StatsRequest, StatsResponse__Output>('Stats', 'StatsRequest', 'StatsResponse'),
  Connect: method<ConnectRequest, ConnectResponse__Output>('Connect', 'ConnectRequest', 'ConnectResponse'),
  Shutdown: method<ShutdownRequest, Empty>('Shutdown', 'ShutdownRequest', EMPTY),
};

// Quick calls get a deadline so a wedged shim cannot hang the caller forever; Create/Start/Delete
// run runc and may legitimately take long on a loaded node; Wait blocks until the process exits.
const QUICK_MS = 10_000;
const SLOW_MS = 120_000;

export class TaskClient {
  constructor(readonly ttrpc: TtrpcClient) {}

  state(r: StateRequest): Promise<StateResponse__Output> {
    return calls.State(this.ttrpc, r, { timeoutMs: QUICK_MS });
  }
  /** Create, waited for until `deadlineMs` (ms since the epoch) when that comes before its own bound. */
  create(r: CreateTaskRequest, deadlineMs?: number): Promise<CreateTaskResponse__Output> {
    return calls.Create(this.ttrpc, r, { timeoutMs: boundedBy(SLOW_MS, deadlineMs) });
  }
  /**
   * An exec's Start gets no deadline (as containerd's CRI sends none): the shim runs `runc exec`
   * under the request's context, so a deadline that passes mid-start kills runc after the process
   * may have started, leaving it running with a PID the shim never learnt and nobody can kill. A
   * shim under an exit storm takes minutes to answer (its reaper delivers one exit a second).
   */
  start(r: StartRequest): Promise<StartResponse__Output> {
    return calls.Start(this.ttrpc, r, r.exec_id ? {} : { timeoutMs: SLOW_MS });
  }
  /** Delete, waited for at most `boundMs` when that is shorter than its own bound. */
  delete(r: DeleteRequest, boundMs = SLOW_MS): Promise<DeleteResponse__Output> {
    return calls.Delete(this.ttrpc, r, { timeoutMs: Math.min(boundMs, SLOW_MS) });
  }
  pids(r: PidsRequest): Promise<PidsResponse__Output> {
    return calls.Pids(this.ttrpc, r, { timeoutMs: QUICK_MS });
  }
  pause(r: PauseRequest): Promise<Empty> {
    return calls.Pause(this.ttrpc, r, { timeoutMs: SLOW_MS });
  }
  resume(r: ResumeRequest): Promise<Empty> {
    return calls.Resume(this.ttrpc, r, { timeoutMs: SLOW_MS });
  }
  kill(r: KillRequest): Promise<Empty> {
    return calls.Kill(this.ttrpc, r, { timeoutMs: SLOW_MS });
  }
  exec(r: ExecProcessRequest): Promise<Empty> {
    return calls.Exec(this.ttrpc, r, { timeoutMs: SLOW_MS });
  }
  resizePty(r: ResizePtyRequest): Promise<Empty> {
    return calls.ResizePty(this.ttrpc, r, { timeoutMs: QUICK_MS });
  }
  closeIO(r: CloseIORequest): Promise<Empty> {
    return calls.CloseIO(this.ttrpc, r, { timeoutMs: QUICK_MS });
  }
  update(r: UpdateTaskRequest): Promise<Empty> {
    return calls.Update(this.ttrpc, r, { timeoutMs: SLOW_MS });
  }
  /** Blocks until the process exits; no deadline. */
  wait(r: WaitRequest): Promise<WaitResponse__Output> {
    return calls.Wait(this.ttrpc, r);
  }
  stats(r: StatsRequest): Promise<StatsResponse__Output> {
    return calls.Stats(this.ttrpc, r, { timeoutMs: QUICK_MS });
  }
  connect(r: ConnectRequest): Promise<ConnectResponse__Output> {
    return calls.Connect(this.ttrpc, r, { timeoutMs: QUICK_MS });
  }
  shutdown(r: ShutdownRequest): Promise<Empty> {
    return calls.Shutdown(this.ttrpc, r, { timeoutMs: QUICK_MS });
  }
}
