// @ts-nocheck
import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CheckpointTaskRequest as _containerd_task_v2_CheckpointTaskRequest, CheckpointTaskRequest__Output as _containerd_task_v2_CheckpointTaskRequest__Output } from './containerd/task/v2/CheckpointTaskRequest';
import type { CloseIORequest as _containerd_task_v2_CloseIORequest, CloseIORequest__Output as _containerd_task_v2_CloseIORequest__Output } from './containerd/task/v2/CloseIORequest';
import type { ConnectRequest as _containerd_task_v2_ConnectRequest, ConnectRequest__Output as _containerd_task_v2_ConnectRequest__Output } from './containerd/task/v2/ConnectRequest';
import type { ConnectResponse as _containerd_task_v2_ConnectResponse, ConnectResponse__Output as _containerd_task_v2_ConnectResponse__Output } from './containerd/task/v2/ConnectResponse';
import type { CreateTaskRequest as _containerd_task_v2_CreateTaskRequest, CreateTaskRequest__Output as _containerd_task_v2_CreateTaskRequest__Output } from './containerd/task/v2/CreateTaskRequest';
import type { CreateTaskResponse as _containerd_task_v2_CreateTaskResponse, CreateTaskResponse__Output as _containerd_task_v2_CreateTaskResponse__Output } from './containerd/task/v2/CreateTaskResponse';
import type { DeleteRequest as _containerd_task_v2_DeleteRequest, DeleteRequest__Output as _containerd_task_v2_DeleteRequest__Output } from './containerd/task/v2/DeleteRequest';
import type { DeleteResponse as _containerd_task_v2_DeleteResponse, DeleteResponse__Output as _containerd_task_v2_DeleteResponse__Output } from './containerd/task/v2/DeleteResponse';
import type { ExecProcessRequest as _containerd_task_v2_ExecProcessRequest, ExecProcessRequest__Output as _containerd_task_v2_ExecProcessRequest__Output } from './containerd/task/v2/ExecProcessRequest';
import type { ExecProcessResponse as _containerd_task_v2_ExecProcessResponse, ExecProcessResponse__Output as _containerd_task_v2_ExecProcessResponse__Output } from './containerd/task/v2/ExecProcessResponse';
import type { KillRequest as _containerd_task_v2_KillRequest, KillRequest__Output as _containerd_task_v2_KillRequest__Output } from './containerd/task/v2/KillRequest';
import type { PauseRequest as _containerd_task_v2_PauseRequest, PauseRequest__Output as _containerd_task_v2_PauseRequest__Output } from './containerd/task/v2/PauseRequest';
import type { PidsRequest as _containerd_task_v2_PidsRequest, PidsRequest__Output as _containerd_task_v2_PidsRequest__Output } from './containerd/task/v2/PidsRequest';
import type { PidsResponse as _containerd_task_v2_PidsResponse, PidsResponse__Output as _containerd_task_v2_PidsResponse__Output } from './containerd/task/v2/PidsResponse';
import type { ResizePtyRequest as _containerd_task_v2_ResizePtyRequest, ResizePtyRequest__Output as _containerd_task_v2_ResizePtyRequest__Output } from './containerd/task/v2/ResizePtyRequest';
import type { ResumeRequest as _containerd_task_v2_ResumeRequest, ResumeRequest__Output as _containerd_task_v2_ResumeRequest__Output } from './containerd/task/v2/ResumeRequest';
import type { ShutdownRequest as _containerd_task_v2_ShutdownRequest, ShutdownRequest__Output as _containerd_task_v2_ShutdownRequest__Output } from './containerd/task/v2/ShutdownRequest';
import type { StartRequest as _containerd_task_v2_StartRequest, StartRequest__Output as _containerd_task_v2_StartRequest__Output } from './containerd/task/v2/StartRequest';
import type { StartResponse as _containerd_task_v2_StartResponse, StartResponse__Output as _containerd_task_v2_StartResponse__Output } from './containerd/task/v2/StartResponse';
import type { StateRequest as _containerd_task_v2_StateRequest, StateRequest__Output as _containerd_task_v2_StateRequest__Output } from './containerd/task/v2/StateRequest';
import type { StateResponse as _containerd_task_v2_StateResponse, StateResponse__Output as _containerd_task_v2_StateResponse__Output } from './containerd/task/v2/StateResponse';
import type { StatsRequest as _containerd_task_v2_StatsRequest, StatsRequest__Output as _containerd_task_v2_StatsRequest__Output } from './containerd/task/v2/StatsRequest';
import type { StatsResponse as _containerd_task_v2_StatsResponse, StatsResponse__Output as _containerd_task_v2_StatsResponse__Output } from './containerd/task/v2/StatsResponse';
import type { TaskClient as _containerd_task_v2_TaskClient, TaskDefinition as _containerd_task_v2_TaskDefinition } from './containerd/task/v2/Task';
import type { UpdateTaskRequest as _containerd_task_v2_UpdateTaskRequest, UpdateTaskRequest__Output as _containerd_task_v2_UpdateTaskRequest__Output } from './containerd/task/v2/UpdateTaskRequest';
import type { WaitRequest as _containerd_task_v2_WaitRequest, WaitRequest__Output as _containerd_task_v2_WaitRequest__Output } from './containerd/task/v2/WaitRequest';
import type { WaitResponse as _containerd_task_v2_WaitResponse, WaitResponse__Output as _containerd_task_v2_WaitResponse__Output } from './containerd/task/v2/WaitResponse';
import type { ActivationInfo as _containerd_types_ActivationInfo, ActivationInfo__Output as _containerd_types_ActivationInfo__Output } from './containerd/types/ActivationInfo';
import type { ActiveMount as _containerd_types_ActiveMount, ActiveMount__Output as _containerd_types_ActiveMount__Output } from './containerd/types/ActiveMount';
import type { Envelope as _containerd_types_Envelope, Envelope__Output as _containerd_types_Envelope__Output } from './containerd/types/Envelope';
import type { Mount as _containerd_types_Mount, Mount__Output as _containerd_types_Mount__Output } from './containerd/types/Mount';
import type { Process as _containerd_v1_types_Process, Process__Output as _containerd_v1_types_Process__Output } from './containerd/v1/types/Process';
import type { ProcessInfo as _containerd_v1_types_ProcessInfo, ProcessInfo__Output as _containerd_v1_types_ProcessInfo__Output } from './containerd/v1/types/ProcessInfo';
import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from './google/protobuf/Any';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from './google/protobuf/Empty';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  containerd: {
    task: {
      v2: {
        CheckpointTaskRequest: MessageTypeDefinition<_containerd_task_v2_CheckpointTaskRequest, _containerd_task_v2_CheckpointTaskRequest__Output>
        CloseIORequest: MessageTypeDefinition<_containerd_task_v2_CloseIORequest, _containerd_task_v2_CloseIORequest__Output>
        ConnectRequest: MessageTypeDefinition<_containerd_task_v2_ConnectRequest, _containerd_task_v2_ConnectRequest__Output>
        ConnectResponse: MessageTypeDefinition<_containerd_task_v2_ConnectResponse, _containerd_task_v2_ConnectResponse__Output>
        CreateTaskRequest: MessageTypeDefinition<_containerd_task_v2_CreateTaskRequest, _containerd_task_v2_CreateTaskRequest__Output>
        CreateTaskResponse: MessageTypeDefinition<_containerd_task_v2_CreateTaskResponse, _containerd_task_v2_CreateTaskResponse__Output>
        DeleteRequest: MessageTypeDefinition<_containerd_task_v2_DeleteRequest, _containerd_task_v2_DeleteRequest__Output>
        DeleteResponse: MessageTypeDefinition<_containerd_task_v2_DeleteResponse, _containerd_task_v2_DeleteResponse__Output>
        ExecProcessRequest: MessageTypeDefinition<_containerd_task_v2_ExecProcessRequest, _containerd_task_v2_ExecProcessRequest__Output>
        ExecProcessResponse: MessageTypeDefinition<_containerd_task_v2_ExecProcessResponse, _containerd_task_v2_ExecProcessResponse__Output>
        KillRequest: MessageTypeDefinition<_containerd_task_v2_KillRequest, _containerd_task_v2_KillRequest__Output>
        PauseRequest: MessageTypeDefinition<_containerd_task_v2_PauseRequest, _containerd_task_v2_PauseRequest__Output>
        PidsRequest: MessageTypeDefinition<_containerd_task_v2_PidsRequest, _containerd_task_v2_PidsRequest__Output>
        PidsResponse: MessageTypeDefinition<_containerd_task_v2_PidsResponse, _containerd_task_v2_PidsResponse__Output>
        ResizePtyRequest: MessageTypeDefinition<_containerd_task_v2_ResizePtyRequest, _containerd_task_v2_ResizePtyRequest__Output>
        ResumeRequest: MessageTypeDefinition<_containerd_task_v2_ResumeRequest, _containerd_task_v2_ResumeRequest__Output>
        ShutdownRequest: MessageTypeDefinition<_containerd_task_v2_ShutdownRequest, _containerd_task_v2_ShutdownRequest__Output>
        StartRequest: MessageTypeDefinition<_containerd_task_v2_StartRequest, _containerd_task_v2_StartRequest__Output>
        StartResponse: MessageTypeDefinition<_containerd_task_v2_StartResponse, _containerd_task_v2_StartResponse__Output>
        StateRequest: MessageTypeDefinition<_containerd_task_v2_StateRequest, _containerd_task_v2_StateRequest__Output>
        StateResponse: MessageTypeDefinition<_containerd_task_v2_StateResponse, _containerd_task_v2_StateResponse__Output>
        StatsRequest: MessageTypeDefinition<_containerd_task_v2_StatsRequest, _containerd_task_v2_StatsRequest__Output>
        StatsResponse: MessageTypeDefinition<_containerd_task_v2_StatsResponse, _containerd_task_v2_StatsResponse__Output>
        Task: SubtypeConstructor<typeof grpc.Client, _containerd_task_v2_TaskClient> & { service: _containerd_task_v2_TaskDefinition }
        UpdateTaskRequest: MessageTypeDefinition<_containerd_task_v2_UpdateTaskRequest, _containerd_task_v2_UpdateTaskRequest__Output>
        WaitRequest: MessageTypeDefinition<_containerd_task_v2_WaitRequest, _containerd_task_v2_WaitRequest__Output>
        WaitResponse: MessageTypeDefinition<_containerd_task_v2_WaitResponse, _containerd_task_v2_WaitResponse__Output>
      }
    }
    types: {
      ActivationInfo: MessageTypeDefinition<_containerd_types_ActivationInfo, _containerd_types_ActivationInfo__Output>
      ActiveMount: MessageTypeDefinition<_containerd_types_ActiveMount, _containerd_types_ActiveMount__Output>
      Envelope: MessageTypeDefinition<_containerd_types_Envelope, _containerd_types_Envelope__Output>
      Mount: MessageTypeDefinition<_containerd_types_Mount, _containerd_types_Mount__Output>
    }
    v1: {
      types: {
        Process: MessageTypeDefinition<_containerd_v1_types_Process, _containerd_v1_types_Process__Output>
        ProcessInfo: MessageTypeDefinition<_containerd_v1_types_ProcessInfo, _containerd_v1_types_ProcessInfo__Output>
        Status: EnumTypeDefinition
      }
    }
  }
  google: {
    protobuf: {
      Any: MessageTypeDefinition<_google_protobuf_Any, _google_protobuf_Any__Output>
      Empty: MessageTypeDefinition<_google_protobuf_Empty, _google_protobuf_Empty__Output>
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
    }
  }
}

