// @ts-nocheck
import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AdminClient as _berth_admin_v1_AdminClient, AdminDefinition as _berth_admin_v1_AdminDefinition } from './berth/admin/v1/Admin';
import type { ContainerDiskUsage as _berth_admin_v1_ContainerDiskUsage, ContainerDiskUsage__Output as _berth_admin_v1_ContainerDiskUsage__Output } from './berth/admin/v1/ContainerDiskUsage';
import type { DiskUsage as _berth_admin_v1_DiskUsage, DiskUsage__Output as _berth_admin_v1_DiskUsage__Output } from './berth/admin/v1/DiskUsage';
import type { DiskUsageRequest as _berth_admin_v1_DiskUsageRequest, DiskUsageRequest__Output as _berth_admin_v1_DiskUsageRequest__Output } from './berth/admin/v1/DiskUsageRequest';
import type { DiskUsageResponse as _berth_admin_v1_DiskUsageResponse, DiskUsageResponse__Output as _berth_admin_v1_DiskUsageResponse__Output } from './berth/admin/v1/DiskUsageResponse';
import type { ExportImageChunk as _berth_admin_v1_ExportImageChunk, ExportImageChunk__Output as _berth_admin_v1_ExportImageChunk__Output } from './berth/admin/v1/ExportImageChunk';
import type { ExportImageRequest as _berth_admin_v1_ExportImageRequest, ExportImageRequest__Output as _berth_admin_v1_ExportImageRequest__Output } from './berth/admin/v1/ExportImageRequest';
import type { GarbageCollectRequest as _berth_admin_v1_GarbageCollectRequest, GarbageCollectRequest__Output as _berth_admin_v1_GarbageCollectRequest__Output } from './berth/admin/v1/GarbageCollectRequest';
import type { GarbageCollectResponse as _berth_admin_v1_GarbageCollectResponse, GarbageCollectResponse__Output as _berth_admin_v1_GarbageCollectResponse__Output } from './berth/admin/v1/GarbageCollectResponse';
import type { ImportImageRequest as _berth_admin_v1_ImportImageRequest, ImportImageRequest__Output as _berth_admin_v1_ImportImageRequest__Output } from './berth/admin/v1/ImportImageRequest';
import type { ImportImageResponse as _berth_admin_v1_ImportImageResponse, ImportImageResponse__Output as _berth_admin_v1_ImportImageResponse__Output } from './berth/admin/v1/ImportImageResponse';
import type { ImportedImage as _berth_admin_v1_ImportedImage, ImportedImage__Output as _berth_admin_v1_ImportedImage__Output } from './berth/admin/v1/ImportedImage';
import type { Ingest as _berth_admin_v1_Ingest, Ingest__Output as _berth_admin_v1_Ingest__Output } from './berth/admin/v1/Ingest';
import type { ListIngestsRequest as _berth_admin_v1_ListIngestsRequest, ListIngestsRequest__Output as _berth_admin_v1_ListIngestsRequest__Output } from './berth/admin/v1/ListIngestsRequest';
import type { ListIngestsResponse as _berth_admin_v1_ListIngestsResponse, ListIngestsResponse__Output as _berth_admin_v1_ListIngestsResponse__Output } from './berth/admin/v1/ListIngestsResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  berth: {
    admin: {
      v1: {
        Admin: SubtypeConstructor<typeof grpc.Client, _berth_admin_v1_AdminClient> & { service: _berth_admin_v1_AdminDefinition }
        ContainerDiskUsage: MessageTypeDefinition<_berth_admin_v1_ContainerDiskUsage, _berth_admin_v1_ContainerDiskUsage__Output>
        DiskUsage: MessageTypeDefinition<_berth_admin_v1_DiskUsage, _berth_admin_v1_DiskUsage__Output>
        DiskUsageRequest: MessageTypeDefinition<_berth_admin_v1_DiskUsageRequest, _berth_admin_v1_DiskUsageRequest__Output>
        DiskUsageResponse: MessageTypeDefinition<_berth_admin_v1_DiskUsageResponse, _berth_admin_v1_DiskUsageResponse__Output>
        ExportImageChunk: MessageTypeDefinition<_berth_admin_v1_ExportImageChunk, _berth_admin_v1_ExportImageChunk__Output>
        ExportImageRequest: MessageTypeDefinition<_berth_admin_v1_ExportImageRequest, _berth_admin_v1_ExportImageRequest__Output>
        GarbageCollectRequest: MessageTypeDefinition<_berth_admin_v1_GarbageCollectRequest, _berth_admin_v1_GarbageCollectRequest__Output>
        GarbageCollectResponse: MessageTypeDefinition<_berth_admin_v1_GarbageCollectResponse, _berth_admin_v1_GarbageCollectResponse__Output>
        ImportImageRequest: MessageTypeDefinition<_berth_admin_v1_ImportImageRequest, _berth_admin_v1_ImportImageRequest__Output>
        ImportImageResponse: MessageTypeDefinition<_berth_admin_v1_ImportImageResponse, _berth_admin_v1_ImportImageResponse__Output>
        ImportedImage: MessageTypeDefinition<_berth_admin_v1_ImportedImage, _berth_admin_v1_ImportedImage__Output>
        Ingest: MessageTypeDefinition<_berth_admin_v1_Ingest, _berth_admin_v1_Ingest__Output>
        ListIngestsRequest: MessageTypeDefinition<_berth_admin_v1_ListIngestsRequest, _berth_admin_v1_ListIngestsRequest__Output>
        ListIngestsResponse: MessageTypeDefinition<_berth_admin_v1_ListIngestsResponse, _berth_admin_v1_ListIngestsResponse__Output>
      }
    }
  }
}

