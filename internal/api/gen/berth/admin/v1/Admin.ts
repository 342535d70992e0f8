// Original file: api/berth/admin/v1/admin.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ImportImageRequest as _berth_admin_v1_ImportImageRequest, ImportImageRequest__Output as _berth_admin_v1_ImportImageRequest__Output } from '../../../berth/admin/v1/ImportImageRequest';
import type { ImportImageResponse as _berth_admin_v1_ImportImageResponse, ImportImageResponse__Output as _berth_admin_v1_ImportImageResponse__Output } from '../../../berth/admin/v1/ImportImageResponse';

export interface AdminClient extends grpc.Client {
  ImportImage(argument: _berth_admin_v1_ImportImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  ImportImage(argument: _berth_admin_v1_ImportImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  ImportImage(argument: _berth_admin_v1_ImportImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  ImportImage(argument: _berth_admin_v1_ImportImageRequest, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  importImage(argument: _berth_admin_v1_ImportImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  importImage(argument: _berth_admin_v1_ImportImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  importImage(argument: _berth_admin_v1_ImportImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  importImage(argument: _berth_admin_v1_ImportImageRequest, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AdminHandlers extends grpc.UntypedServiceImplementation {
  ImportImage: grpc.handleUnaryCall<_berth_admin_v1_ImportImageRequest__Output, _berth_admin_v1_ImportImageResponse>;
  
}

export interface AdminDefinition extends grpc.ServiceDefinition {
  ImportImage: MethodDefinition<_berth_admin_v1_ImportImageRequest, _berth_admin_v1_ImportImageResponse, _berth_admin_v1_ImportImageRequest__Output, _berth_admin_v1_ImportImageResponse__Output>
}
