// Original file: api/containerd/task/v2/shim.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CheckpointTaskRequest as _containerd_task_v2_CheckpointTaskRequest, CheckpointTaskRequest__Output as _containerd_task_v2_CheckpointTaskRequest__Output } from '../../../containerd/task/v2/CheckpointTaskRequest';
import type { CloseIORequest as _containerd_task_v2_CloseIORequest, CloseIORequest__Output as _containerd_task_v2_CloseIORequest__Output } from '../../../containerd/task/v2/CloseIORequest';
import type { ConnectRequest as _containerd_task_v2_ConnectRequest, ConnectRequest__Output as _containerd_task_v2_ConnectRequest__Output } from '../../../containerd/task/v2/ConnectRequest';
import type { ConnectResponse as _containerd_task_v2_ConnectResponse, ConnectResponse__Output as _containerd_task_v2_ConnectResponse__Output } from '../../../containerd/task/v2/ConnectResponse';
import type { CreateTaskRequest as _containerd_task_v2_CreateTaskRequest, CreateTaskRequest__Output as _containerd_task_v2_CreateTaskRequest__Output } from '../../../containerd/task/v2/CreateTaskRequest';
import type { CreateTaskResponse as _containerd_task_v2_CreateTaskResponse, CreateTaskResponse__Output as _containerd_task_v2_CreateTaskResponse__Output } from '../../../containerd/task/v2/CreateTaskResponse';
import type { DeleteRequest as _containerd_task_v2_DeleteRequest, DeleteRequest__Output as _containerd_task_v2_DeleteRequest__Output } from '../../../containerd/task/v2/DeleteRequest';
import type { DeleteResponse as _containerd_task_v2_DeleteResponse, DeleteResponse__Output as _containerd_task_v2_DeleteResponse__Output } from '../../../containerd/task/v2/DeleteResponse';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from '../../../google/protobuf/Empty';
import type { ExecProcessRequest as _containerd_task_v2_ExecProcessRequest, ExecProcessRequest__Output as _containerd_task_v2_ExecProcessRequest__Output } from '../../../containerd/task/v2/ExecProcessRequest';
import type { KillRequest as _containerd_task_v2_KillRequest, KillRequest__Output as _containerd_task_v2_KillRequest__Output } from '../../../containerd/task/v2/KillRequest';
import type { PauseRequest as _containerd_task_v2_PauseRequest, PauseRequest__Output as _containerd_task_v2_PauseRequest__Output } from '../../../containerd/task/v2/PauseRequest';
import type { PidsRequest as _containerd_task_v2_PidsRequest, PidsRequest__Output as _containerd_task_v2_PidsRequest__Output } from '../../../containerd/task/v2/PidsRequest';
import type { PidsResponse as _containerd_task_v2_PidsResponse, PidsResponse__Output as _containerd_task_v2_PidsResponse__Output } from '../../../containerd/task/v2/PidsResponse';
import type { ResizePtyRequest as _containerd_task_v2_ResizePtyRequest, ResizePtyRequest__Output as _containerd_task_v2_ResizePtyRequest__Output } from '../../../containerd/task/v2/ResizePtyRequest';
import type { ResumeRequest as _containerd_task_v2_ResumeRequest, ResumeRequest__Output as _containerd_task_v2_ResumeRequest__Output } from '../../../containerd/task/v2/ResumeRequest';
import type { ShutdownRequest as _containerd_task_v2_ShutdownRequest, ShutdownRequest__Output as _containerd_task_v2_ShutdownRequest__Output } from '../../../containerd/task/v2/ShutdownRequest';
import type { StartRequest as _containerd_task_v2_StartRequest, StartRequest__Output as _containerd_task_v2_StartRequest__Output } from '../../../containerd/task/v2/StartRequest';
import type { StartResponse as _containerd_task_v2_StartResponse, StartResponse__Output as _containerd_task_v2_StartResponse__Output } from '../../../containerd/task/v2/StartResponse';
import type { StateRequest as _containerd_task_v2_StateRequest, StateRequest__Output as _containerd_task_v2_StateRequest__Output } from '../../../containerd/task/v2/StateRequest';
import type { StateResponse as _containerd_task_v2_StateResponse, StateResponse__Output as _containerd_task_v2_StateResponse__Output } from '../../../containerd/task/v2/StateResponse';
import type { StatsRequest as _containerd_task_v2_StatsRequest, StatsRequest__Output as _containerd_task_v2_StatsRequest__Output } from '../../../containerd/task/v2/StatsRequest';
import type { StatsResponse as _containerd_task_v2_StatsResponse, StatsResponse__Output as _containerd_task_v2_StatsResponse__Output } from '../../../containerd/task/v2/StatsResponse';
import type { UpdateTaskRequest as _containerd_task_v2_UpdateTaskRequest, UpdateTaskRequest__Output as _containerd_task_v2_UpdateTaskRequest__Output } from '../../../containerd/task/v2/UpdateTaskRequest';
import type { WaitRequest as _containerd_task_v2_WaitRequest, WaitRequest__Output as _containerd_task_v2_WaitRequest__Output } from '../../../containerd/task/v2/WaitRequest';
import type { WaitResponse as _containerd_task_v2_WaitResponse, WaitResponse__Output as _containerd_task_v2_WaitResponse__Output } from '../../../containerd/task/v2/WaitResponse';

export interface TaskClient extends grpc.Client {
  Checkpoint(argument: _containerd_task_v2_CheckpointTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Checkpoint(argument: _containerd_task_v2_CheckpointTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Checkpoint(argument: _containerd_task_v2_CheckpointTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Checkpoint(argument: _containerd_task_v2_CheckpointTaskRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  checkpoint(argument: _containerd_task_v2_CheckpointTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  checkpoint(argument: _containerd_task_v2_CheckpointTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  checkpoint(argument: _containerd_task_v2_CheckpointTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  checkpoint(argument: _containerd_task_v2_CheckpointTaskRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  CloseIO(argument: _containerd_task_v2_CloseIORequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  CloseIO(argument: _containerd_task_v2_CloseIORequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  CloseIO(argument: _containerd_task_v2_CloseIORequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  CloseIO(argument: _containerd_task_v2_CloseIORequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  closeIo(argument: _containerd_task_v2_CloseIORequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  closeIo(argument: _containerd_task_v2_CloseIORequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  closeIo(argument: _containerd_task_v2_CloseIORequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  closeIo(argument: _containerd_task_v2_CloseIORequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  Connect(argument: _containerd_task_v2_ConnectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_ConnectResponse__Output>): grpc.ClientUnaryCall;
  Connect(argument: _containerd_task_v2_ConnectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_ConnectResponse__Output>): grpc.ClientUnaryCall;
  Connect(argument: _containerd_task_v2_ConnectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_ConnectResponse__Output>): grpc.ClientUnaryCall;
  Connect(argument: _containerd_task_v2_ConnectRequest, callback: grpc.requestCallback<_containerd_task_v2_ConnectResponse__Output>): grpc.ClientUnaryCall;
  connect(argument: _containerd_task_v2_ConnectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_ConnectResponse__Output>): grpc.ClientUnaryCall;
  connect(argument: _containerd_task_v2_ConnectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_ConnectResponse__Output>): grpc.ClientUnaryCall;
  connect(argument: _containerd_task_v2_ConnectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_ConnectResponse__Output>): grpc.ClientUnaryCall;
  connect(argument: _containerd_task_v2_ConnectRequest, callback: grpc.requestCallback<_containerd_task_v2_ConnectResponse__Output>): grpc.ClientUnaryCall;
  
  Create(argument: _containerd_task_v2_CreateTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_CreateTaskResponse__Output>): grpc.ClientUnaryCall;
  Create(argument: _containerd_task_v2_CreateTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_CreateTaskResponse__Output>): grpc.ClientUnaryCall;
  Create(argument: _containerd_task_v2_CreateTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_CreateTaskResponse__Output>): grpc.ClientUnaryCall;
  Create(argument: _containerd_task_v2_CreateTaskRequest, callback: grpc.requestCallback<_containerd_task_v2_CreateTaskResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _containerd_task_v2_CreateTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_CreateTaskResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _containerd_task_v2_CreateTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_CreateTaskResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _containerd_task_v2_CreateTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_CreateTaskResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _containerd_task_v2_CreateTaskRequest, callback: grpc.requestCallback<_containerd_task_v2_CreateTaskResponse__Output>): grpc.ClientUnaryCall;
  
  Delete(argument: _containerd_task_v2_DeleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_DeleteResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _containerd_task_v2_DeleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_DeleteResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _containerd_task_v2_DeleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_DeleteResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _containerd_task_v2_DeleteRequest, callback: grpc.requestCallback<_containerd_task_v2_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _containerd_task_v2_DeleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _containerd_task_v2_DeleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _containerd_task_v2_DeleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _containerd_task_v2_DeleteRequest, callback: grpc.requestCallback<_containerd_task_v2_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  Exec(argument: _containerd_task_v2_ExecProcessRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Exec(argument: _containerd_task_v2_ExecProcessRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Exec(argument: _containerd_task_v2_ExecProcessRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Exec(argument: _containerd_task_v2_ExecProcessRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  exec(argument: _containerd_task_v2_ExecProcessRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  exec(argument: _containerd_task_v2_ExecProcessRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  exec(argument: _containerd_task_v2_ExecProcessRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  exec(argument: _containerd_task_v2_ExecProcessRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  Kill(argument: _containerd_task_v2_KillRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Kill(argument: _containerd_task_v2_KillRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Kill(argument: _containerd_task_v2_KillRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Kill(argument: _containerd_task_v2_KillRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  kill(argument: _containerd_task_v2_KillRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  kill(argument: _containerd_task_v2_KillRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  kill(argument: _containerd_task_v2_KillRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  kill(argument: _containerd_task_v2_KillRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  Pause(argument: _containerd_task_v2_PauseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Pause(argument: _containerd_task_v2_PauseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Pause(argument: _containerd_task_v2_PauseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Pause(argument: _containerd_task_v2_PauseRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  pause(argument: _containerd_task_v2_PauseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  pause(argument: _containerd_task_v2_PauseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  pause(argument: _containerd_task_v2_PauseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  pause(argument: _containerd_task_v2_PauseRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  Pids(argument: _containerd_task_v2_PidsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_PidsResponse__Output>): grpc.ClientUnaryCall;
  Pids(argument: _containerd_task_v2_PidsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_PidsResponse__Output>): grpc.ClientUnaryCall;
  Pids(argument: _containerd_task_v2_PidsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_PidsResponse__Output>): grpc.ClientUnaryCall;
  Pids(argument: _containerd_task_v2_PidsRequest, callback: grpc.requestCallback<_containerd_task_v2_PidsResponse__Output>): grpc.ClientUnaryCall;
  pids(argument: _containerd_task_v2_PidsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_PidsResponse__Output>): grpc.ClientUnaryCall;
  pids(argument: _containerd_task_v2_PidsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_PidsResponse__Output>): grpc.ClientUnaryCall;
  pids(argument: _containerd_task_v2_PidsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_PidsResponse__Output>): grpc.ClientUnaryCall;
  pids(argument: _containerd_task_v2_PidsRequest, callback: grpc.requestCallback<_containerd_task_v2_PidsResponse__Output>): grpc.ClientUnaryCall;
  
  ResizePty(argument: _containerd_task_v2_ResizePtyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  ResizePty(argument: _containerd_task_v2_ResizePtyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  ResizePty(argument: _containerd_task_v2_ResizePtyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  ResizePty(argument: _containerd_task_v2_ResizePtyRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  resizePty(argument: _containerd_task_v2_ResizePtyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  resizePty(argument: _containerd_task_v2_ResizePtyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  resizePty(argument: _containerd_task_v2_ResizePtyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  resizePty(argument: _containerd_task_v2_ResizePtyRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  Resume(argument: _containerd_task_v2_ResumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Resume(argument: _containerd_task_v2_ResumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Resume(argument: _containerd_task_v2_ResumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Resume(argument: _containerd_task_v2_ResumeRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  resume(argument: _containerd_task_v2_ResumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  resume(argument: _containerd_task_v2_ResumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  resume(argument: _containerd_task_v2_ResumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  resume(argument: _containerd_task_v2_ResumeRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  Shutdown(argument: _containerd_task_v2_ShutdownRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Shutdown(argument: _containerd_task_v2_ShutdownRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Shutdown(argument: _containerd_task_v2_ShutdownRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Shutdown(argument: _containerd_task_v2_ShutdownRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  shutdown(argument: _containerd_task_v2_ShutdownRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  shutdown(argument: _containerd_task_v2_ShutdownRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  shutdown(argument: _containerd_task_v2_ShutdownRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  shutdown(argument: _containerd_task_v2_ShutdownRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  Start(argument: _containerd_task_v2_StartRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StartResponse__Output>): grpc.ClientUnaryCall;
  Start(argument: _containerd_task_v2_StartRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_StartResponse__Output>): grpc.ClientUnaryCall;
  Start(argument: _containerd_task_v2_StartRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StartResponse__Output>): grpc.ClientUnaryCall;
  Start(argument: _containerd_task_v2_StartRequest, callback: grpc.requestCallback<_containerd_task_v2_StartResponse__Output>): grpc.ClientUnaryCall;
  start(argument: _containerd_task_v2_StartRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StartResponse__Output>): grpc.ClientUnaryCall;
  start(argument: _containerd_task_v2_StartRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_StartResponse__Output>): grpc.ClientUnaryCall;
  start(argument: _containerd_task_v2_StartRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StartResponse__Output>): grpc.ClientUnaryCall;
  start(argument: _containerd_task_v2_StartRequest, callback: grpc.requestCallback<_containerd_task_v2_StartResponse__Output>): grpc.ClientUnaryCall;
  
  State(argument: _containerd_task_v2_StateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StateResponse__Output>): grpc.ClientUnaryCall;
  State(argument: _containerd_task_v2_StateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_StateResponse__Output>): grpc.ClientUnaryCall;
  State(argument: _containerd_task_v2_StateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StateResponse__Output>): grpc.ClientUnaryCall;
  State(argument: _containerd_task_v2_StateRequest, callback: grpc.requestCallback<_containerd_task_v2_StateResponse__Output>): grpc.ClientUnaryCall;
  state(argument: _containerd_task_v2_StateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StateResponse__Output>): grpc.ClientUnaryCall;
  state(argument: _containerd_task_v2_StateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_StateResponse__Output>): grpc.ClientUnaryCall;
  state(argument: _containerd_task_v2_StateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StateResponse__Output>): grpc.ClientUnaryCall;
  state(argument: _containerd_task_v2_StateRequest, callback: grpc.requestCallback<_containerd_task_v2_StateResponse__Output>): grpc.ClientUnaryCall;
  
  Stats(argument: _containerd_task_v2_StatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StatsResponse__Output>): grpc.ClientUnaryCall;
  Stats(argument: _containerd_task_v2_StatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_StatsResponse__Output>): grpc.ClientUnaryCall;
  Stats(argument: _containerd_task_v2_StatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StatsResponse__Output>): grpc.ClientUnaryCall;
  Stats(argument: _containerd_task_v2_StatsRequest, callback: grpc.requestCallback<_containerd_task_v2_StatsResponse__Output>): grpc.ClientUnaryCall;
  stats(argument: _containerd_task_v2_StatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StatsResponse__Output>): grpc.ClientUnaryCall;
  stats(argument: _containerd_task_v2_StatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_StatsResponse__Output>): grpc.ClientUnaryCall;
  stats(argument: _containerd_task_v2_StatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_StatsResponse__Output>): grpc.ClientUnaryCall;
  stats(argument: _containerd_task_v2_StatsRequest, callback: grpc.requestCallback<_containerd_task_v2_StatsResponse__Output>): grpc.ClientUnaryCall;
  
  Update(argument: _containerd_task_v2_UpdateTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Update(argument: _containerd_task_v2_UpdateTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Update(argument: _containerd_task_v2_UpdateTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  Update(argument: _containerd_task_v2_UpdateTaskRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  update(argument: _containerd_task_v2_UpdateTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  update(argument: _containerd_task_v2_UpdateTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  update(argument: _containerd_task_v2_UpdateTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  update(argument: _containerd_task_v2_UpdateTaskRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  Wait(argument: _containerd_task_v2_WaitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_WaitResponse__Output>): grpc.ClientUnaryCall;
  Wait(argument: _containerd_task_v2_WaitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_WaitResponse__Output>): grpc.ClientUnaryCall;
  Wait(argument: _containerd_task_v2_WaitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_WaitResponse__Output>): grpc.ClientUnaryCall;
  Wait(argument: _containerd_task_v2_WaitRequest, callback: grpc.requestCallback<_containerd_task_v2_WaitResponse__Output>): grpc.ClientUnaryCall;
  wait(argument: _containerd_task_v2_WaitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_WaitResponse__Output>): grpc.ClientUnaryCall;
  wait(argument: _containerd_task_v2_WaitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_containerd_task_v2_WaitResponse__Output>): grpc.ClientUnaryCall;
  wait(argument: _containerd_task_v2_WaitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_containerd_task_v2_WaitResponse__Output>): grpc.ClientUnaryCall;
  wait(argument: _containerd_task_v2_WaitRequest, callback: grpc.requestCallback<_containerd_task_v2_WaitResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface TaskHandlers extends grpc.UntypedServiceImplementation {
  Checkpoint: grpc.handleUnaryCall<_containerd_task_v2_CheckpointTaskRequest__Output, _google_protobuf_Empty>;
  
  CloseIO: grpc.handleUnaryCall<_containerd_task_v2_CloseIORequest__Output, _google_protobuf_Empty>;
  
  Connect: grpc.handleUnaryCall<_containerd_task_v2_ConnectRequest__Output, _containerd_task_v2_ConnectResponse>;
  
  Create: grpc.handleUnaryCall<_containerd_task_v2_CreateTaskRequest__Output, _containerd_task_v2_CreateTaskResponse>;
  
  Delete: grpc.handleUnaryCall<_containerd_task_v2_DeleteRequest__Output, _containerd_task_v2_DeleteResponse>;
  
  Exec: grpc.handleUnaryCall<_containerd_task_v2_ExecProcessRequest__Output, _google_protobuf_Empty>;
  
  Kill: grpc.handleUnaryCall<_containerd_task_v2_KillRequest__Output, _google_protobuf_Empty>;
  
  Pause: grpc.handleUnaryCall<_containerd_task_v2_PauseRequest__Output, _google_protobuf_Empty>;
  
  Pids: grpc.handleUnaryCall<_containerd_task_v2_PidsRequest__Output, _containerd_task_v2_PidsResponse>;
  
  ResizePty: grpc.handleUnaryCall<_containerd_task_v2_ResizePtyRequest__Output, _google_protobuf_Empty>;
  
  Resume: grpc.handleUnaryCall<_containerd_task_v2_ResumeRequest__Output, _google_protobuf_Empty>;
  
  Shutdown: grpc.handleUnaryCall<_containerd_task_v2_ShutdownRequest__Output, _google_protobuf_Empty>;
  
  Start: grpc.handleUnaryCall<_containerd_task_v2_StartRequest__Output, _containerd_task_v2_StartResponse>;
  
  State: grpc.handleUnaryCall<_containerd_task_v2_StateRequest__Output, _containerd_task_v2_StateResponse>;
  
  Stats: grpc.handleUnaryCall<_containerd_task_v2_StatsRequest__Output, _containerd_task_v2_StatsResponse>;
  
  Update: grpc.handleUnaryCall<_containerd_task_v2_UpdateTaskRequest__Output, _google_protobuf_Empty>;
  
  Wait: grpc.handleUnaryCall<_containerd_task_v2_WaitRequest__Output, _containerd_task_v2_WaitResponse>;
  
}

export interface TaskDefinition extends grpc.ServiceDefinition {
  Checkpoint: MethodDefinition<_containerd_task_v2_CheckpointTaskRequest, _google_protobuf_Empty, _containerd_task_v2_CheckpointTaskRequest__Output, _google_protobuf_Empty__Output>
  CloseIO: MethodDefinition<_containerd_task_v2_CloseIORequest, _google_protobuf_Empty, _containerd_task_v2_CloseIORequest__Output, _google_protobuf_Empty__Output>
  Connect: MethodDefinition<_containerd_task_v2_ConnectRequest, _containerd_task_v2_ConnectResponse, _containerd_task_v2_ConnectRequest__Output, _containerd_task_v2_ConnectResponse__Output>
  Create: MethodDefinition<_containerd_task_v2_CreateTaskRequest, _containerd_task_v2_CreateTaskResponse, _containerd_task_v2_CreateTaskRequest__Output, _containerd_task_v2_CreateTaskResponse__Output>
  Delete: MethodDefinition<_containerd_task_v2_DeleteRequest, _containerd_task_v2_DeleteResponse, _containerd_task_v2_DeleteRequest__Output, _containerd_task_v2_DeleteResponse__Output>
  Exec: MethodDefinition<_containerd_task_v2_ExecProcessRequest, _google_protobuf_Empty, _containerd_task_v2_ExecProcessRequest__Output, _google_protobuf_Empty__Output>
  Kill: MethodDefinition<_containerd_task_v2_KillRequest, _google_protobuf_Empty, _containerd_task_v2_KillRequest__Output, _google_protobuf_Empty__Output>
  Pause: MethodDefinition<_containerd_task_v2_PauseRequest, _google_protobuf_Empty, _containerd_task_v2_PauseRequest__Output, _google_protobuf_Empty__Output>
  Pids: MethodDefinition<_containerd_task_v2_PidsRequest, _containerd_task_v2_PidsResponse, _containerd_task_v2_PidsRequest__Output, _containerd_task_v2_PidsResponse__Output>
  ResizePty: MethodDefinition<_containerd_task_v2_ResizePtyRequest, _google_protobuf_Empty, _containerd_task_v2_ResizePtyRequest__Output, _google_protobuf_Empty__Output>
  Resume: MethodDefinition<_containerd_task_v2_ResumeRequest, _google_protobuf_Empty, _containerd_task_v2_ResumeRequest__Output, _google_protobuf_Empty__Output>
  Shutdown: MethodDefinition<_containerd_task_v2_ShutdownRequest, _google_protobuf_Empty, _containerd_task_v2_ShutdownRequest__Output, _google_protobuf_Empty__Output>
  Start: MethodDefinition<_containerd_task_v2_StartRequest, _containerd_task_v2_StartResponse, _containerd_task_v2_StartRequest__Output, _containerd_task_v2_StartResponse__Output>
  State: MethodDefinition<_containerd_task_v2_StateRequest, _containerd_task_v2_StateResponse, _containerd_task_v2_StateRequest__Output, _containerd_task_v2_StateResponse__Output>
  Stats: MethodDefinition<_containerd_task_v2_StatsRequest, _containerd_task_v2_StatsResponse, _containerd_task_v2_StatsRequest__Output, _containerd_task_v2_StatsResponse__Output>
  Update: MethodDefinition<_containerd_task_v2_UpdateTaskRequest, _google_protobuf_Empty, _containerd_task_v2_UpdateTaskRequest__Output, _google_protobuf_Empty__Output>
  Wait: MethodDefinition<_containerd_task_v2_WaitRequest, _containerd_task_v2_WaitResponse, _containerd_task_v2_WaitRequest__Output, _containerd_task_v2_WaitResponse__Output>
}
