// Original file: api/berth/admin/v1/admin.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DiskUsageRequest as _berth_admin_v1_DiskUsageRequest, DiskUsageRequest__Output as _berth_admin_v1_DiskUsageRequest__Output } from '../../../berth/admin/v1/DiskUsageRequest';
import type { DiskUsageResponse as _berth_admin_v1_DiskUsageResponse, DiskUsageResponse__Output as _berth_admin_v1_DiskUsageResponse__Output } from '../../../berth/admin/v1/DiskUsageResponse';
import type { ExportImageChunk as _berth_admin_v1_ExportImageChunk, ExportImageChunk__Output as _berth_admin_v1_ExportImageChunk__Output } from '../../../berth/admin/v1/ExportImageChunk';
import type { ExportImageRequest as _berth_admin_v1_ExportImageRequest, ExportImageRequest__Output as _berth_admin_v1_ExportImageRequest__Output } from '../../../berth/admin/v1/ExportImageRequest';
import type { GarbageCollectRequest as _berth_admin_v1_GarbageCollectRequest, GarbageCollectRequest__Output as _berth_admin_v1_GarbageCollectRequest__Output } from '../../../berth/admin/v1/GarbageCollectRequest';
import type { GarbageCollectResponse as _berth_admin_v1_GarbageCollectResponse, GarbageCollectResponse__Output as _berth_admin_v1_GarbageCollectResponse__Output } from '../../../berth/admin/v1/GarbageCollectResponse';
import type { ImportImageRequest as _berth_admin_v1_ImportImageRequest, ImportImageRequest__Output as _berth_admin_v1_ImportImageRequest__Output } from '../../../berth/admin/v1/ImportImageRequest';
import type { ImportImageResponse as _berth_admin_v1_ImportImageResponse, ImportImageResponse__Output as _berth_admin_v1_ImportImageResponse__Output } from '../../../berth/admin/v1/ImportImageResponse';
import type { ListIngestsRequest as _berth_admin_v1_ListIngestsRequest, ListIngestsRequest__Output as _berth_admin_v1_ListIngestsRequest__Output } from '../../../berth/admin/v1/ListIngestsRequest';
import type { ListIngestsResponse as _berth_admin_v1_ListIngestsResponse, ListIngestsResponse__Output as _berth_admin_v1_ListIngestsResponse__Output } from '../../../berth/admin/v1/ListIngestsResponse';

export interface AdminClient extends grpc.Client {
  DiskUsage(argument: _berth_admin_v1_DiskUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_DiskUsageResponse__Output>): grpc.ClientUnaryCall;
  DiskUsage(argument: _berth_admin_v1_DiskUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_DiskUsageResponse__Output>): grpc.ClientUnaryCall;
  DiskUsage(argument: _berth_admin_v1_DiskUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_DiskUsageResponse__Output>): grpc.ClientUnaryCall;
  DiskUsage(argument: _berth_admin_v1_DiskUsageRequest, callback: grpc.requestCallback<_berth_admin_v1_DiskUsageResponse__Output>): grpc.ClientUnaryCall;
  diskUsage(argument: _berth_admin_v1_DiskUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_DiskUsageResponse__Output>): grpc.ClientUnaryCall;
  diskUsage(argument: _berth_admin_v1_DiskUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_DiskUsageResponse__Output>): grpc.ClientUnaryCall;
  diskUsage(argument: _berth_admin_v1_DiskUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_DiskUsageResponse__Output>): grpc.ClientUnaryCall;
  diskUsage(argument: _berth_admin_v1_DiskUsageRequest, callback: grpc.requestCallback<_berth_admin_v1_DiskUsageResponse__Output>): grpc.ClientUnaryCall;
  
  ExportImage(argument: _berth_admin_v1_ExportImageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_berth_admin_v1_ExportImageChunk__Output>;
  ExportImage(argument: _berth_admin_v1_ExportImageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_berth_admin_v1_ExportImageChunk__Output>;
  exportImage(argument: _berth_admin_v1_ExportImageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_berth_admin_v1_ExportImageChunk__Output>;
  exportImage(argument: _berth_admin_v1_ExportImageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_berth_admin_v1_ExportImageChunk__Output>;
  
  GarbageCollect(argument: _berth_admin_v1_GarbageCollectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_GarbageCollectResponse__Output>): grpc.ClientUnaryCall;
  GarbageCollect(argument: _berth_admin_v1_GarbageCollectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_GarbageCollectResponse__Output>): grpc.ClientUnaryCall;
  GarbageCollect(argument: _berth_admin_v1_GarbageCollectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_GarbageCollectResponse__Output>): grpc.ClientUnaryCall;
  GarbageCollect(argument: _berth_admin_v1_GarbageCollectRequest, callback: grpc.requestCallback<_berth_admin_v1_GarbageCollectResponse__Output>): grpc.ClientUnaryCall;
  garbageCollect(argument: _berth_admin_v1_GarbageCollectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_GarbageCollectResponse__Output>): grpc.ClientUnaryCall;
  garbageCollect(argument: _berth_admin_v1_GarbageCollectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_GarbageCollectResponse__Output>): grpc.ClientUnaryCall;
  garbageCollect(argument: _berth_admin_v1_GarbageCollectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_GarbageCollectResponse__Output>): grpc.ClientUnaryCall;
  garbageCollect(argument: _berth_admin_v1_GarbageCollectRequest, callback: grpc.requestCallback<_berth_admin_v1_GarbageCollectResponse__Output>): grpc.ClientUnaryCall;
  
  ImportImage(argument: _berth_admin_v1_ImportImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  ImportImage(argument: _berth_admin_v1_ImportImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  ImportImage(argument: _berth_admin_v1_ImportImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  ImportImage(argument: _berth_admin_v1_ImportImageRequest, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  importImage(argument: _berth_admin_v1_ImportImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  importImage(argument: _berth_admin_v1_ImportImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  importImage(argument: _berth_admin_v1_ImportImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  importImage(argument: _berth_admin_v1_ImportImageRequest, callback: grpc.requestCallback<_berth_admin_v1_ImportImageResponse__Output>): grpc.ClientUnaryCall;
  
  ListIngests(argument: _berth_admin_v1_ListIngestsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ListIngestsResponse__Output>): grpc.ClientUnaryCall;
  ListIngests(argument: _berth_admin_v1_ListIngestsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_ListIngestsResponse__Output>): grpc.ClientUnaryCall;
  ListIngests(argument: _berth_admin_v1_ListIngestsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ListIngestsResponse__Output>): grpc.ClientUnaryCall;
  ListIngests(argument: _berth_admin_v1_ListIngestsRequest, callback: grpc.requestCallback<_berth_admin_v1_ListIngestsResponse__Output>): grpc.ClientUnaryCall;
  listIngests(argument: _berth_admin_v1_ListIngestsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ListIngestsResponse__Output>): grpc.ClientUnaryCall;
  listIngests(argument: _berth_admin_v1_ListIngestsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_berth_admin_v1_ListIngestsResponse__Output>): grpc.ClientUnaryCall;
  listIngests(argument: _berth_admin_v1_ListIngestsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_berth_admin_v1_ListIngestsResponse__Output>): grpc.ClientUnaryCall;
  listIngests(argument: _berth_admin_v1_ListIngestsRequest, callback: grpc.requestCallback<_berth_admin_v1_ListIngestsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AdminHandlers extends grpc.UntypedServiceImplementation {
  DiskUsage: grpc.handleUnaryCall<_berth_admin_v1_DiskUsageRequest__Output, _berth_admin_v1_DiskUsageResponse>;
  
  ExportImage: grpc.handleServerStreamingCall<_berth_admin_v1_ExportImageRequest__Output, _berth_admin_v1_ExportImageChunk>;
  
  GarbageCollect: grpc.handleUnaryCall<_berth_admin_v1_GarbageCollectRequest__Output, _berth_admin_v1_GarbageCollectResponse>;
  
  ImportImage: grpc.handleUnaryCall<_berth_admin_v1_ImportImageRequest__Output, _berth_admin_v1_ImportImageResponse>;
  
  ListIngests: grpc.handleUnaryCall<_berth_admin_v1_ListIngestsRequest__Output, _berth_admin_v1_ListIngestsResponse>;
  
}

export interface AdminDefinition extends grpc.ServiceDefinition {
  DiskUsage: MethodDefinition<_berth_admin_v1_DiskUsageRequest, _berth_admin_v1_DiskUsageResponse, _berth_admin_v1_DiskUsageRequest__Output, _berth_admin_v1_DiskUsageResponse__Output>
  ExportImage: MethodDefinition<_berth_admin_v1_ExportImageRequest, _berth_admin_v1_ExportImageChunk, _berth_admin_v1_ExportImageRequest__Output, _berth_admin_v1_ExportImageChunk__Output>
  GarbageCollect: MethodDefinition<_berth_admin_v1_GarbageCollectRequest, _berth_admin_v1_GarbageCollectResponse, _berth_admin_v1_GarbageCollectRequest__Output, _berth_admin_v1_GarbageCollectResponse__Output>
  ImportImage: MethodDefinition<_berth_admin_v1_ImportImageRequest, _berth_admin_v1_ImportImageResponse, _berth_admin_v1_ImportImageRequest__Output, _berth_admin_v1_ImportImageResponse__Output>
  ListIngests: MethodDefinition<_berth_admin_v1_ListIngestsRequest, _berth_admin_v1_ListIngestsResponse, _berth_admin_v1_ListIngestsRequest__Output, _berth_admin_v1_ListIngestsResponse__Output>
}
