// Original file: api/runtime/v1alpha2/api.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AttachRequest as _runtime_v1alpha2_AttachRequest, AttachRequest__Output as _runtime_v1alpha2_AttachRequest__Output } from '../../runtime/v1alpha2/AttachRequest';
import type { AttachResponse as _runtime_v1alpha2_AttachResponse, AttachResponse__Output as _runtime_v1alpha2_AttachResponse__Output } from '../../runtime/v1alpha2/AttachResponse';
import type { ContainerStatsRequest as _runtime_v1alpha2_ContainerStatsRequest, ContainerStatsRequest__Output as _runtime_v1alpha2_ContainerStatsRequest__Output } from '../../runtime/v1alpha2/ContainerStatsRequest';
import type { ContainerStatsResponse as _runtime_v1alpha2_ContainerStatsResponse, ContainerStatsResponse__Output as _runtime_v1alpha2_ContainerStatsResponse__Output } from '../../runtime/v1alpha2/ContainerStatsResponse';
import type { ContainerStatusRequest as _runtime_v1alpha2_ContainerStatusRequest, ContainerStatusRequest__Output as _runtime_v1alpha2_ContainerStatusRequest__Output } from '../../runtime/v1alpha2/ContainerStatusRequest';
import type { ContainerStatusResponse as _runtime_v1alpha2_ContainerStatusResponse, ContainerStatusResponse__Output as _runtime_v1alpha2_ContainerStatusResponse__Output } from '../../runtime/v1alpha2/ContainerStatusResponse';
import type { CreateContainerRequest as _runtime_v1alpha2_CreateContainerRequest, CreateContainerRequest__Output as _runtime_v1alpha2_CreateContainerRequest__Output } from '../../runtime/v1alpha2/CreateContainerRequest';
import type { CreateContainerResponse as _runtime_v1alpha2_CreateContainerResponse, CreateContainerResponse__Output as _runtime_v1alpha2_CreateContainerResponse__Output } from '../../runtime/v1alpha2/CreateContainerResponse';
import type { ExecRequest as _runtime_v1alpha2_ExecRequest, ExecRequest__Output as _runtime_v1alpha2_ExecRequest__Output } from '../../runtime/v1alpha2/ExecRequest';
import type { ExecResponse as _runtime_v1alpha2_ExecResponse, ExecResponse__Output as _runtime_v1alpha2_ExecResponse__Output } from '../../runtime/v1alpha2/ExecResponse';
import type { ExecSyncRequest as _runtime_v1alpha2_ExecSyncRequest, ExecSyncRequest__Output as _runtime_v1alpha2_ExecSyncRequest__Output } from '../../runtime/v1alpha2/ExecSyncRequest';
import type { ExecSyncResponse as _runtime_v1alpha2_ExecSyncResponse, ExecSyncResponse__Output as _runtime_v1alpha2_ExecSyncResponse__Output } from '../../runtime/v1alpha2/ExecSyncResponse';
import type { ListContainerStatsRequest as _runtime_v1alpha2_ListContainerStatsRequest, ListContainerStatsRequest__Output as _runtime_v1alpha2_ListContainerStatsRequest__Output } from '../../runtime/v1alpha2/ListContainerStatsRequest';
import type { ListContainerStatsResponse as _runtime_v1alpha2_ListContainerStatsResponse, ListContainerStatsResponse__Output as _runtime_v1alpha2_ListContainerStatsResponse__Output } from '../../runtime/v1alpha2/ListContainerStatsResponse';
import type { ListContainersRequest as _runtime_v1alpha2_ListContainersRequest, ListContainersRequest__Output as _runtime_v1alpha2_ListContainersRequest__Output } from '../../runtime/v1alpha2/ListContainersRequest';
import type { ListContainersResponse as _runtime_v1alpha2_ListContainersResponse, ListContainersResponse__Output as _runtime_v1alpha2_ListContainersResponse__Output } from '../../runtime/v1alpha2/ListContainersResponse';
import type { ListPodSandboxRequest as _runtime_v1alpha2_ListPodSandboxRequest, ListPodSandboxRequest__Output as _runtime_v1alpha2_ListPodSandboxRequest__Output } from '../../runtime/v1alpha2/ListPodSandboxRequest';
import type { ListPodSandboxResponse as _runtime_v1alpha2_ListPodSandboxResponse, ListPodSandboxResponse__Output as _runtime_v1alpha2_ListPodSandboxResponse__Output } from '../../runtime/v1alpha2/ListPodSandboxResponse';
import type { ListPodSandboxStatsRequest as _runtime_v1alpha2_ListPodSandboxStatsRequest, ListPodSandboxStatsRequest__Output as _runtime_v1alpha2_ListPodSandboxStatsRequest__Output } from '../../runtime/v1alpha2/ListPodSandboxStatsRequest';
import type { ListPodSandboxStatsResponse as _runtime_v1alpha2_ListPodSandboxStatsResponse, ListPodSandboxStatsResponse__Output as _runtime_v1alpha2_ListPodSandboxStatsResponse__Output } from '../../runtime/v1alpha2/ListPodSandboxStatsResponse';
import type { PodSandboxStatsRequest as _runtime_v1alpha2_PodSandboxStatsRequest, PodSandboxStatsRequest__Output as _runtime_v1alpha2_PodSandboxStatsRequest__Output } from '../../runtime/v1alpha2/PodSandboxStatsRequest';
import type { PodSandboxStatsResponse as _runtime_v1alpha2_PodSandboxStatsResponse, PodSandboxStatsResponse__Output as _runtime_v1alpha2_PodSandboxStatsResponse__Output } from '../../runtime/v1alpha2/PodSandboxStatsResponse';
import type { PodSandboxStatusRequest as _runtime_v1alpha2_PodSandboxStatusRequest, PodSandboxStatusRequest__Output as _runtime_v1alpha2_PodSandboxStatusRequest__Output } from '../../runtime/v1alpha2/PodSandboxStatusRequest';
import type { PodSandboxStatusResponse as _runtime_v1alpha2_PodSandboxStatusResponse, PodSandboxStatusResponse__Output as _runtime_v1alpha2_PodSandboxStatusResponse__Output } from '../../runtime/v1alpha2/PodSandboxStatusResponse';
import type { PortForwardRequest as _runtime_v1alpha2_PortForwardRequest, PortForwardRequest__Output as _runtime_v1alpha2_PortForwardRequest__Output } from '../../runtime/v1alpha2/PortForwardRequest';
import type { PortForwardResponse as _runtime_v1alpha2_PortForwardResponse, PortForwardResponse__Output as _runtime_v1alpha2_PortForwardResponse__Output } from '../../runtime/v1alpha2/PortForwardResponse';
import type { RemoveContainerRequest as _runtime_v1alpha2_RemoveContainerRequest, RemoveContainerRequest__Output as _runtime_v1alpha2_RemoveContainerRequest__Output } from '../../runtime/v1alpha2/RemoveContainerRequest';
import type { RemoveContainerResponse as _runtime_v1alpha2_RemoveContainerResponse, RemoveContainerResponse__Output as _runtime_v1alpha2_RemoveContainerResponse__Output } from '../../runtime/v1alpha2/RemoveContainerResponse';
import type { RemovePodSandboxRequest as _runtime_v1alpha2_RemovePodSandboxRequest, RemovePodSandboxRequest__Output as _runtime_v1alpha2_RemovePodSandboxRequest__Output } from '../../runtime/v1alpha2/RemovePodSandboxRequest';
import type { RemovePodSandboxResponse as _runtime_v1alpha2_RemovePodSandboxResponse, RemovePodSandboxResponse__Output as _runtime_v1alpha2_RemovePodSandboxResponse__Output } from '../../runtime/v1alpha2/RemovePodSandboxResponse';
import type { ReopenContainerLogRequest as _runtime_v1alpha2_ReopenContainerLogRequest, ReopenContainerLogRequest__Output as _runtime_v1alpha2_ReopenContainerLogRequest__Output } from '../../runtime/v1alpha2/ReopenContainerLogRequest';
import type { ReopenContainerLogResponse as _runtime_v1alpha2_ReopenContainerLogResponse, ReopenContainerLogResponse__Output as _runtime_v1alpha2_ReopenContainerLogResponse__Output } from '../../runtime/v1alpha2/ReopenContainerLogResponse';
import type { RunPodSandboxRequest as _runtime_v1alpha2_RunPodSandboxRequest, RunPodSandboxRequest__Output as _runtime_v1alpha2_RunPodSandboxRequest__Output } from '../../runtime/v1alpha2/RunPodSandboxRequest';
import type { RunPodSandboxResponse as _runtime_v1alpha2_RunPodSandboxResponse, RunPodSandboxResponse__Output as _runtime_v1alpha2_RunPodSandboxResponse__Output } from '../../runtime/v1alpha2/RunPodSandboxResponse';
import type { StartContainerRequest as _runtime_v1alpha2_StartContainerRequest, StartContainerRequest__Output as _runtime_v1alpha2_StartContainerRequest__Output } from '../../runtime/v1alpha2/StartContainerRequest';
import type { StartContainerResponse as _runtime_v1alpha2_StartContainerResponse, StartContainerResponse__Output as _runtime_v1alpha2_StartContainerResponse__Output } from '../../runtime/v1alpha2/StartContainerResponse';
import type { StatusRequest as _runtime_v1alpha2_StatusRequest, StatusRequest__Output as _runtime_v1alpha2_StatusRequest__Output } from '../../runtime/v1alpha2/StatusRequest';
import type { StatusResponse as _runtime_v1alpha2_StatusResponse, StatusResponse__Output as _runtime_v1alpha2_StatusResponse__Output } from '../../runtime/v1alpha2/StatusResponse';
import type { StopContainerRequest as _runtime_v1alpha2_StopContainerRequest, StopContainerRequest__Output as _runtime_v1alpha2_StopContainerRequest__Output } from '../../runtime/v1alpha2/StopContainerRequest';
import type { StopContainerResponse as _runtime_v1alpha2_StopContainerResponse, StopContainerResponse__Output as _runtime_v1alpha2_StopContainerResponse__Output } from '../../runtime/v1alpha2/StopContainerResponse';
import type { StopPodSandboxRequest as _runtime_v1alpha2_StopPodSandboxRequest, StopPodSandboxRequest__Output as _runtime_v1alpha2_StopPodSandboxRequest__Output } from '../../runtime/v1alpha2/StopPodSandboxRequest';
import type { StopPodSandboxResponse as _runtime_v1alpha2_StopPodSandboxResponse, StopPodSandboxResponse__Output as _runtime_v1alpha2_StopPodSandboxResponse__Output } from '../../runtime/v1alpha2/StopPodSandboxResponse';
import type { UpdateContainerResourcesRequest as _runtime_v1alpha2_UpdateContainerResourcesRequest, UpdateContainerResourcesRequest__Output as _runtime_v1alpha2_UpdateContainerResourcesRequest__Output } from '../../runtime/v1alpha2/UpdateContainerResourcesRequest';
import type { UpdateContainerResourcesResponse as _runtime_v1alpha2_UpdateContainerResourcesResponse, UpdateContainerResourcesResponse__Output as _runtime_v1alpha2_UpdateContainerResourcesResponse__Output } from '../../runtime/v1alpha2/UpdateContainerResourcesResponse';
import type { UpdateRuntimeConfigRequest as _runtime_v1alpha2_UpdateRuntimeConfigRequest, UpdateRuntimeConfigRequest__Output as _runtime_v1alpha2_UpdateRuntimeConfigRequest__Output } from '../../runtime/v1alpha2/UpdateRuntimeConfigRequest';
import type { UpdateRuntimeConfigResponse as _runtime_v1alpha2_UpdateRuntimeConfigResponse, UpdateRuntimeConfigResponse__Output as _runtime_v1alpha2_UpdateRuntimeConfigResponse__Output } from '../../runtime/v1alpha2/UpdateRuntimeConfigResponse';
import type { VersionRequest as _runtime_v1alpha2_VersionRequest, VersionRequest__Output as _runtime_v1alpha2_VersionRequest__Output } from '../../runtime/v1alpha2/VersionRequest';
import type { VersionResponse as _runtime_v1alpha2_VersionResponse, VersionResponse__Output as _runtime_v1alpha2_VersionResponse__Output } from '../../runtime/v1alpha2/VersionResponse';

export interface RuntimeServiceClient extends grpc.Client {
  Attach(argument: _runtime_v1alpha2_AttachRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_AttachResponse__Output>): grpc.ClientUnaryCall;
  Attach(argument: _runtime_v1alpha2_AttachRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_AttachResponse__Output>): grpc.ClientUnaryCall;
  Attach(argument: _runtime_v1alpha2_AttachRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_AttachResponse__Output>): grpc.ClientUnaryCall;
  Attach(argument: _runtime_v1alpha2_AttachRequest, callback: grpc.requestCallback<_runtime_v1alpha2_AttachResponse__Output>): grpc.ClientUnaryCall;
  attach(argument: _runtime_v1alpha2_AttachRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_AttachResponse__Output>): grpc.ClientUnaryCall;
  attach(argument: _runtime_v1alpha2_AttachRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_AttachResponse__Output>): grpc.ClientUnaryCall;
  attach(argument: _runtime_v1alpha2_AttachRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_AttachResponse__Output>): grpc.ClientUnaryCall;
  attach(argument: _runtime_v1alpha2_AttachRequest, callback: grpc.requestCallback<_runtime_v1alpha2_AttachResponse__Output>): grpc.ClientUnaryCall;
  
  ContainerStats(argument: _runtime_v1alpha2_ContainerStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ContainerStats(argument: _runtime_v1alpha2_ContainerStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ContainerStats(argument: _runtime_v1alpha2_ContainerStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ContainerStats(argument: _runtime_v1alpha2_ContainerStatsRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  containerStats(argument: _runtime_v1alpha2_ContainerStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  containerStats(argument: _runtime_v1alpha2_ContainerStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  containerStats(argument: _runtime_v1alpha2_ContainerStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  containerStats(argument: _runtime_v1alpha2_ContainerStatsRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  
  ContainerStatus(argument: _runtime_v1alpha2_ContainerStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  ContainerStatus(argument: _runtime_v1alpha2_ContainerStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  ContainerStatus(argument: _runtime_v1alpha2_ContainerStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  ContainerStatus(argument: _runtime_v1alpha2_ContainerStatusRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  containerStatus(argument: _runtime_v1alpha2_ContainerStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  containerStatus(argument: _runtime_v1alpha2_ContainerStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  containerStatus(argument: _runtime_v1alpha2_ContainerStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  containerStatus(argument: _runtime_v1alpha2_ContainerStatusRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  
  CreateContainer(argument: _runtime_v1alpha2_CreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _runtime_v1alpha2_CreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _runtime_v1alpha2_CreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _runtime_v1alpha2_CreateContainerRequest, callback: grpc.requestCallback<_runtime_v1alpha2_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _runtime_v1alpha2_CreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _runtime_v1alpha2_CreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _runtime_v1alpha2_CreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _runtime_v1alpha2_CreateContainerRequest, callback: grpc.requestCallback<_runtime_v1alpha2_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  
  Exec(argument: _runtime_v1alpha2_ExecRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _runtime_v1alpha2_ExecRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _runtime_v1alpha2_ExecRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _runtime_v1alpha2_ExecRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _runtime_v1alpha2_ExecRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _runtime_v1alpha2_ExecRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _runtime_v1alpha2_ExecRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _runtime_v1alpha2_ExecRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ExecResponse__Output>): grpc.ClientUnaryCall;
  
  ExecSync(argument: _runtime_v1alpha2_ExecSyncRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  ExecSync(argument: _runtime_v1alpha2_ExecSyncRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  ExecSync(argument: _runtime_v1alpha2_ExecSyncRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  ExecSync(argument: _runtime_v1alpha2_ExecSyncRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  execSync(argument: _runtime_v1alpha2_ExecSyncRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  execSync(argument: _runtime_v1alpha2_ExecSyncRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  execSync(argument: _runtime_v1alpha2_ExecSyncRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  execSync(argument: _runtime_v1alpha2_ExecSyncRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  
  ListContainerStats(argument: _runtime_v1alpha2_ListContainerStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ListContainerStats(argument: _runtime_v1alpha2_ListContainerStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ListContainerStats(argument: _runtime_v1alpha2_ListContainerStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ListContainerStats(argument: _runtime_v1alpha2_ListContainerStatsRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  listContainerStats(argument: _runtime_v1alpha2_ListContainerStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  listContainerStats(argument: _runtime_v1alpha2_ListContainerStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  listContainerStats(argument: _runtime_v1alpha2_ListContainerStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  listContainerStats(argument: _runtime_v1alpha2_ListContainerStatsRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  
  ListContainers(argument: _runtime_v1alpha2_ListContainersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  ListContainers(argument: _runtime_v1alpha2_ListContainersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  ListContainers(argument: _runtime_v1alpha2_ListContainersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  ListContainers(argument: _runtime_v1alpha2_ListContainersRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _runtime_v1alpha2_ListContainersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _runtime_v1alpha2_ListContainersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _runtime_v1alpha2_ListContainersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _runtime_v1alpha2_ListContainersRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  
  ListPodSandbox(argument: _runtime_v1alpha2_ListPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandbox(argument: _runtime_v1alpha2_ListPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandbox(argument: _runtime_v1alpha2_ListPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandbox(argument: _runtime_v1alpha2_ListPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  listPodSandbox(argument: _runtime_v1alpha2_ListPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  listPodSandbox(argument: _runtime_v1alpha2_ListPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  listPodSandbox(argument: _runtime_v1alpha2_ListPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  listPodSandbox(argument: _runtime_v1alpha2_ListPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  ListPodSandboxStats(argument: _runtime_v1alpha2_ListPodSandboxStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandboxStats(argument: _runtime_v1alpha2_ListPodSandboxStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandboxStats(argument: _runtime_v1alpha2_ListPodSandboxStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandboxStats(argument: _runtime_v1alpha2_ListPodSandboxStatsRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxStats(argument: _runtime_v1alpha2_ListPodSandboxStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxStats(argument: _runtime_v1alpha2_ListPodSandboxStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxStats(argument: _runtime_v1alpha2_ListPodSandboxStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxStats(argument: _runtime_v1alpha2_ListPodSandboxStatsRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  
  PodSandboxStats(argument: _runtime_v1alpha2_PodSandboxStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStats(argument: _runtime_v1alpha2_PodSandboxStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStats(argument: _runtime_v1alpha2_PodSandboxStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStats(argument: _runtime_v1alpha2_PodSandboxStatsRequest, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStats(argument: _runtime_v1alpha2_PodSandboxStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStats(argument: _runtime_v1alpha2_PodSandboxStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStats(argument: _runtime_v1alpha2_PodSandboxStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStats(argument: _runtime_v1alpha2_PodSandboxStatsRequest, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  
  PodSandboxStatus(argument: _runtime_v1alpha2_PodSandboxStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStatus(argument: _runtime_v1alpha2_PodSandboxStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStatus(argument: _runtime_v1alpha2_PodSandboxStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStatus(argument: _runtime_v1alpha2_PodSandboxStatusRequest, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStatus(argument: _runtime_v1alpha2_PodSandboxStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStatus(argument: _runtime_v1alpha2_PodSandboxStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStatus(argument: _runtime_v1alpha2_PodSandboxStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStatus(argument: _runtime_v1alpha2_PodSandboxStatusRequest, callback: grpc.requestCallback<_runtime_v1alpha2_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  
  PortForward(argument: _runtime_v1alpha2_PortForwardRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  PortForward(argument: _runtime_v1alpha2_PortForwardRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  PortForward(argument: _runtime_v1alpha2_PortForwardRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  PortForward(argument: _runtime_v1alpha2_PortForwardRequest, callback: grpc.requestCallback<_runtime_v1alpha2_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  portForward(argument: _runtime_v1alpha2_PortForwardRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  portForward(argument: _runtime_v1alpha2_PortForwardRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  portForward(argument: _runtime_v1alpha2_PortForwardRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  portForward(argument: _runtime_v1alpha2_PortForwardRequest, callback: grpc.requestCallback<_runtime_v1alpha2_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  
  RemoveContainer(argument: _runtime_v1alpha2_RemoveContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _runtime_v1alpha2_RemoveContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _runtime_v1alpha2_RemoveContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _runtime_v1alpha2_RemoveContainerRequest, callback: grpc.requestCallback<_runtime_v1alpha2_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _runtime_v1alpha2_RemoveContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _runtime_v1alpha2_RemoveContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _runtime_v1alpha2_RemoveContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _runtime_v1alpha2_RemoveContainerRequest, callback: grpc.requestCallback<_runtime_v1alpha2_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  
  RemovePodSandbox(argument: _runtime_v1alpha2_RemovePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RemovePodSandbox(argument: _runtime_v1alpha2_RemovePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RemovePodSandbox(argument: _runtime_v1alpha2_RemovePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RemovePodSandbox(argument: _runtime_v1alpha2_RemovePodSandboxRequest, callback: grpc.requestCallback<_runtime_v1alpha2_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _runtime_v1alpha2_RemovePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _runtime_v1alpha2_RemovePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _runtime_v1alpha2_RemovePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _runtime_v1alpha2_RemovePodSandboxRequest, callback: grpc.requestCallback<_runtime_v1alpha2_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  ReopenContainerLog(argument: _runtime_v1alpha2_ReopenContainerLogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  ReopenContainerLog(argument: _runtime_v1alpha2_ReopenContainerLogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  ReopenContainerLog(argument: _runtime_v1alpha2_ReopenContainerLogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  ReopenContainerLog(argument: _runtime_v1alpha2_ReopenContainerLogRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  reopenContainerLog(argument: _runtime_v1alpha2_ReopenContainerLogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  reopenContainerLog(argument: _runtime_v1alpha2_ReopenContainerLogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  reopenContainerLog(argument: _runtime_v1alpha2_ReopenContainerLogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  reopenContainerLog(argument: _runtime_v1alpha2_ReopenContainerLogRequest, callback: grpc.requestCallback<_runtime_v1alpha2_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  
  RunPodSandbox(argument: _runtime_v1alpha2_RunPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RunPodSandbox(argument: _runtime_v1alpha2_RunPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RunPodSandbox(argument: _runtime_v1alpha2_RunPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RunPodSandbox(argument: _runtime_v1alpha2_RunPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1alpha2_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _runtime_v1alpha2_RunPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _runtime_v1alpha2_RunPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _runtime_v1alpha2_RunPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _runtime_v1alpha2_RunPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1alpha2_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  StartContainer(argument: _runtime_v1alpha2_StartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _runtime_v1alpha2_StartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _runtime_v1alpha2_StartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _runtime_v1alpha2_StartContainerRequest, callback: grpc.requestCallback<_runtime_v1alpha2_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _runtime_v1alpha2_StartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _runtime_v1alpha2_StartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _runtime_v1alpha2_StartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _runtime_v1alpha2_StartContainerRequest, callback: grpc.requestCallback<_runtime_v1alpha2_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  
  Status(argument: _runtime_v1alpha2_StatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StatusResponse__Output>): grpc.ClientUnaryCall;
  Status(argument: _runtime_v1alpha2_StatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_StatusResponse__Output>): grpc.ClientUnaryCall;
  Status(argument: _runtime_v1alpha2_StatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StatusResponse__Output>): grpc.ClientUnaryCall;
  Status(argument: _runtime_v1alpha2_StatusRequest, callback: grpc.requestCallback<_runtime_v1alpha2_StatusResponse__Output>): grpc.ClientUnaryCall;
  status(argument: _runtime_v1alpha2_StatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StatusResponse__Output>): grpc.ClientUnaryCall;
  status(argument: _runtime_v1alpha2_StatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_StatusResponse__Output>): grpc.ClientUnaryCall;
  status(argument: _runtime_v1alpha2_StatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StatusResponse__Output>): grpc.ClientUnaryCall;
  status(argument: _runtime_v1alpha2_StatusRequest, callback: grpc.requestCallback<_runtime_v1alpha2_StatusResponse__Output>): grpc.ClientUnaryCall;
  
  StopContainer(argument: _runtime_v1alpha2_StopContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _runtime_v1alpha2_StopContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _runtime_v1alpha2_StopContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _runtime_v1alpha2_StopContainerRequest, callback: grpc.requestCallback<_runtime_v1alpha2_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _runtime_v1alpha2_StopContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _runtime_v1alpha2_StopContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _runtime_v1alpha2_StopContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _runtime_v1alpha2_StopContainerRequest, callback: grpc.requestCallback<_runtime_v1alpha2_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  
  StopPodSandbox(argument: _runtime_v1alpha2_StopPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  StopPodSandbox(argument: _runtime_v1alpha2_StopPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  StopPodSandbox(argument: _runtime_v1alpha2_StopPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  StopPodSandbox(argument: _runtime_v1alpha2_StopPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1alpha2_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _runtime_v1alpha2_StopPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _runtime_v1alpha2_StopPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _runtime_v1alpha2_StopPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _runtime_v1alpha2_StopPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1alpha2_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateContainerResources(argument: _runtime_v1alpha2_UpdateContainerResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainerResources(argument: _runtime_v1alpha2_UpdateContainerResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainerResources(argument: _runtime_v1alpha2_UpdateContainerResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainerResources(argument: _runtime_v1alpha2_UpdateContainerResourcesRequest, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  updateContainerResources(argument: _runtime_v1alpha2_UpdateContainerResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  updateContainerResources(argument: _runtime_v1alpha2_UpdateContainerResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  updateContainerResources(argument: _runtime_v1alpha2_UpdateContainerResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  updateContainerResources(argument: _runtime_v1alpha2_UpdateContainerResourcesRequest, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateRuntimeConfig(argument: _runtime_v1alpha2_UpdateRuntimeConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  UpdateRuntimeConfig(argument: _runtime_v1alpha2_UpdateRuntimeConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  UpdateRuntimeConfig(argument: _runtime_v1alpha2_UpdateRuntimeConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  UpdateRuntimeConfig(argument: _runtime_v1alpha2_UpdateRuntimeConfigRequest, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  updateRuntimeConfig(argument: _runtime_v1alpha2_UpdateRuntimeConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  updateRuntimeConfig(argument: _runtime_v1alpha2_UpdateRuntimeConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  updateRuntimeConfig(argument: _runtime_v1alpha2_UpdateRuntimeConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  updateRuntimeConfig(argument: _runtime_v1alpha2_UpdateRuntimeConfigRequest, callback: grpc.requestCallback<_runtime_v1alpha2_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  
  Version(argument: _runtime_v1alpha2_VersionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_VersionResponse__Output>): grpc.ClientUnaryCall;
  Version(argument: _runtime_v1alpha2_VersionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_VersionResponse__Output>): grpc.ClientUnaryCall;
  Version(argument: _runtime_v1alpha2_VersionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_VersionResponse__Output>): grpc.ClientUnaryCall;
  Version(argument: _runtime_v1alpha2_VersionRequest, callback: grpc.requestCallback<_runtime_v1alpha2_VersionResponse__Output>): grpc.ClientUnaryCall;
  version(argument: _runtime_v1alpha2_VersionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_VersionResponse__Output>): grpc.ClientUnaryCall;
  version(argument: _runtime_v1alpha2_VersionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1alpha2_VersionResponse__Output>): grpc.ClientUnaryCall;
  version(argument: _runtime_v1alpha2_VersionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1alpha2_VersionResponse__Output>): grpc.ClientUnaryCall;
  version(argument: _runtime_v1alpha2_VersionRequest, callback: grpc.requestCallback<_runtime_v1alpha2_VersionResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface RuntimeServiceHandlers extends grpc.UntypedServiceImplementation {
  Attach: grpc.handleUnaryCall<_runtime_v1alpha2_AttachRequest__Output, _runtime_v1alpha2_AttachResponse>;
  
  ContainerStats: grpc.handleUnaryCall<_runtime_v1alpha2_ContainerStatsRequest__Output, _runtime_v1alpha2_ContainerStatsResponse>;
  
  ContainerStatus: grpc.handleUnaryCall<_runtime_v1alpha2_ContainerStatusRequest__Output, _runtime_v1alpha2_ContainerStatusResponse>;
  
  CreateContainer: grpc.handleUnaryCall<_runtime_v1alpha2_CreateContainerRequest__Output, _runtime_v1alpha2_CreateContainerResponse>;
  
  Exec: grpc.handleUnaryCall<_runtime_v1alpha2_ExecRequest__Output, _runtime_v1alpha2_ExecResponse>;
  
  ExecSync: grpc.handleUnaryCall<_runtime_v1alpha2_ExecSyncRequest__Output, _runtime_v1alpha2_ExecSyncResponse>;
  
  ListContainerStats: grpc.handleUnaryCall<_runtime_v1alpha2_ListContainerStatsRequest__Output, _runtime_v1alpha2_ListContainerStatsResponse>;
  
  ListContainers: grpc.handleUnaryCall<_runtime_v1alpha2_ListContainersRequest__Output, _runtime_v1alpha2_ListContainersResponse>;
  
  ListPodSandbox: grpc.handleUnaryCall<_runtime_v1alpha2_ListPodSandboxRequest__Output, _runtime_v1alpha2_ListPodSandboxResponse>;
  
  ListPodSandboxStats: grpc.handleUnaryCall<_runtime_v1alpha2_ListPodSandboxStatsRequest__Output, _runtime_v1alpha2_ListPodSandboxStatsResponse>;
  
  PodSandboxStats: grpc.handleUnaryCall<_runtime_v1alpha2_PodSandboxStatsRequest__Output, _runtime_v1alpha2_PodSandboxStatsResponse>;
  
  PodSandboxStatus: grpc.handleUnaryCall<_runtime_v1alpha2_PodSandboxStatusRequest__Output, _runtime_v1alpha2_PodSandboxStatusResponse>;
  
  PortForward: grpc.handleUnaryCall<_runtime_v1alpha2_PortForwardRequest__Output, _runtime_v1alpha2_PortForwardResponse>;
  
  RemoveContainer: grpc.handleUnaryCall<_runtime_v1alpha2_RemoveContainerRequest__Output, _runtime_v1alpha2_RemoveContainerResponse>;
  
  RemovePodSandbox: grpc.handleUnaryCall<_runtime_v1alpha2_RemovePodSandboxRequest__Output, _runtime_v1alpha2_RemovePodSandboxResponse>;
  
  ReopenContainerLog: grpc.handleUnaryCall<_runtime_v1alpha2_ReopenContainerLogRequest__Output, _runtime_v1alpha2_ReopenContainerLogResponse>;
  
  RunPodSandbox: grpc.handleUnaryCall<_runtime_v1alpha2_RunPodSandboxRequest__Output, _runtime_v1alpha2_RunPodSandboxResponse>;
  
  StartContainer: grpc.handleUnaryCall<_runtime_v1alpha2_StartContainerRequest__Output, _runtime_v1alpha2_StartContainerResponse>;
  
  Status: grpc.handleUnaryCall<_runtime_v1alpha2_StatusRequest__Output, _runtime_v1alpha2_StatusResponse>;
  
  StopContainer: grpc.handleUnaryCall<_runtime_v1alpha2_StopContainerRequest__Output, _runtime_v1alpha2_StopContainerResponse>;
  
  StopPodSandbox: grpc.handleUnaryCall<_runtime_v1alpha2_StopPodSandboxRequest__Output, _runtime_v1alpha2_StopPodSandboxResponse>;
  
  UpdateContainerResources: grpc.handleUnaryCall<_runtime_v1alpha2_UpdateContainerResourcesRequest__Output, _runtime_v1alpha2_UpdateContainerResourcesResponse>;
  
  UpdateRuntimeConfig: grpc.handleUnaryCall<_runtime_v1alpha2_UpdateRuntimeConfigRequest__Output, _runtime_v1alpha2_UpdateRuntimeConfigResponse>;
  
  Version: grpc.handleUnaryCall<_runtime_v1alpha2_VersionRequest__Output, _runtime_v1alpha2_VersionResponse>;
  
}

export interface RuntimeServiceDefinition extends grpc.ServiceDefinition {
  Attach: MethodDefinition<_runtime_v1alpha2_AttachRequest, _runtime_v1alpha2_AttachResponse, _runtime_v1alpha2_AttachRequest__Output, _runtime_v1alpha2_AttachResponse__Output>
  ContainerStats: MethodDefinition<_runtime_v1alpha2_ContainerStatsRequest, _runtime_v1alpha2_ContainerStatsResponse, _runtime_v1alpha2_ContainerStatsRequest__Output, _runtime_v1alpha2_ContainerStatsResponse__Output>
  ContainerStatus: MethodDefinition<_runtime_v1alpha2_ContainerStatusRequest, _runtime_v1alpha2_ContainerStatusResponse, _runtime_v1alpha2_ContainerStatusRequest__Output, _runtime_v1alpha2_ContainerStatusResponse__Output>
  CreateContainer: MethodDefinition<_runtime_v1alpha2_CreateContainerRequest, _runtime_v1alpha2_CreateContainerResponse, _runtime_v1alpha2_CreateContainerRequest__Output, _runtime_v1alpha2_CreateContainerResponse__Output>
  Exec: MethodDefinition<_runtime_v1alpha2_ExecRequest, _runtime_v1alpha2_ExecResponse, _runtime_v1alpha2_ExecRequest__Output, _runtime_v1alpha2_ExecResponse__Output>
  ExecSync: MethodDefinition<_runtime_v1alpha2_ExecSyncRequest, _runtime_v1alpha2_ExecSyncResponse, _runtime_v1alpha2_ExecSyncRequest__Output, _runtime_v1alpha2_ExecSyncResponse__Output>
  ListContainerStats: MethodDefinition<_runtime_v1alpha2_ListContainerStatsRequest, _runtime_v1alpha2_ListContainerStatsResponse, _runtime_v1alpha2_ListContainerStatsRequest__Output, _runtime_v1alpha2_ListContainerStatsResponse__Output>
  ListContainers: MethodDefinition<_runtime_v1alpha2_ListContainersRequest, _runtime_v1alpha2_ListContainersResponse, _runtime_v1alpha2_ListContainersRequest__Output, _runtime_v1alpha2_ListContainersResponse__Output>
  ListPodSandbox: MethodDefinition<_runtime_v1alpha2_ListPodSandboxRequest, _runtime_v1alpha2_ListPodSandboxResponse, _runtime_v1alpha2_ListPodSandboxRequest__Output, _runtime_v1alpha2_ListPodSandboxResponse__Output>
  ListPodSandboxStats: MethodDefinition<_runtime_v1alpha2_ListPodSandboxStatsRequest, _runtime_v1alpha2_ListPodSandboxStatsResponse, _runtime_v1alpha2_ListPodSandboxStatsRequest__Output, _runtime_v1alpha2_ListPodSandboxStatsResponse__Output>
  PodSandboxStats: MethodDefinition<_runtime_v1alpha2_PodSandboxStatsRequest, _runtime_v1alpha2_PodSandboxStatsResponse, _runtime_v1alpha2_PodSandboxStatsRequest__Output, _runtime_v1alpha2_PodSandboxStatsResponse__Output>
  PodSandboxStatus: MethodDefinition<_runtime_v1alpha2_PodSandboxStatusRequest, _runtime_v1alpha2_PodSandboxStatusResponse, _runtime_v1alpha2_PodSandboxStatusRequest__Output, _runtime_v1alpha2_PodSandboxStatusResponse__Output>
  PortForward: MethodDefinition<_runtime_v1alpha2_PortForwardRequest, _runtime_v1alpha2_PortForwardResponse, _runtime_v1alpha2_PortForwardRequest__Output, _runtime_v1alpha2_PortForwardResponse__Output>
  RemoveContainer: MethodDefinition<_runtime_v1alpha2_RemoveContainerRequest, _runtime_v1alpha2_RemoveContainerResponse, _runtime_v1alpha2_RemoveContainerRequest__Output, _runtime_v1alpha2_RemoveContainerResponse__Output>
  RemovePodSandbox: MethodDefinition<_runtime_v1alpha2_RemovePodSandboxRequest, _runtime_v1alpha2_RemovePodSandboxResponse, _runtime_v1alpha2_RemovePodSandboxRequest__Output, _runtime_v1alpha2_RemovePodSandboxResponse__Output>
  ReopenContainerLog: MethodDefinition<_runtime_v1alpha2_ReopenContainerLogRequest, _runtime_v1alpha2_ReopenContainerLogResponse, _runtime_v1alpha2_ReopenContainerLogRequest__Output, _runtime_v1alpha2_ReopenContainerLogResponse__Output>
  RunPodSandbox: MethodDefinition<_runtime_v1alpha2_RunPodSandboxRequest, _runtime_v1alpha2_RunPodSandboxResponse, _runtime_v1alpha2_RunPodSandboxRequest__Output, _runtime_v1alpha2_RunPodSandboxResponse__Output>
  StartContainer: MethodDefinition<_runtime_v1alpha2_StartContainerRequest, _runtime_v1alpha2_StartContainerResponse, _runtime_v1alpha2_StartContainerRequest__Output, _runtime_v1alpha2_StartContainerResponse__Output>
  Status: MethodDefinition<_runtime_v1alpha2_StatusRequest, _runtime_v1alpha2_StatusResponse, _runtime_v1alpha2_StatusRequest__Output, _runtime_v1alpha2_StatusResponse__Output>
  StopContainer: MethodDefinition<_runtime_v1alpha2_StopContainerRequest, _runtime_v1alpha2_StopContainerResponse, _runtime_v1alpha2_StopContainerRequest__Output, _runtime_v1alpha2_StopContainerResponse__Output>
  StopPodSandbox: MethodDefinition<_runtime_v1alpha2_StopPodSandboxRequest, _runtime_v1alpha2_StopPodSandboxResponse, _runtime_v1alpha2_StopPodSandboxRequest__Output, _runtime_v1alpha2_StopPodSandboxResponse__Output>
  UpdateContainerResources: MethodDefinition<_runtime_v1alpha2_UpdateContainerResourcesRequest, _runtime_v1alpha2_UpdateContainerResourcesResponse, _runtime_v1alpha2_UpdateContainerResourcesRequest__Output, _runtime_v1alpha2_UpdateContainerResourcesResponse__Output>
  UpdateRuntimeConfig: MethodDefinition<_runtime_v1alpha2_UpdateRuntimeConfigRequest, _runtime_v1alpha2_UpdateRuntimeConfigResponse, _runtime_v1alpha2_UpdateRuntimeConfigRequest__Output, _runtime_v1alpha2_UpdateRuntimeConfigResponse__Output>
  Version: MethodDefinition<_runtime_v1alpha2_VersionRequest, _runtime_v1alpha2_VersionResponse, _runtime_v1alpha2_VersionRequest__Output, _runtime_v1alpha2_VersionResponse__Output>
}
