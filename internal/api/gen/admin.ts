// @ts-nocheck
import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AdminClient as _berth_admin_v1_AdminClient, AdminDefinition as _berth_admin_v1_AdminDefinition } from './berth/admin/v1/Admin';
import type { ImportImageRequest as _berth_admin_v1_ImportImageRequest, ImportImageRequest__Output as _berth_admin_v1_ImportImageRequest__Output } from './berth/admin/v1/ImportImageRequest';
import type { ImportImageResponse as _berth_admin_v1_ImportImageResponse, ImportImageResponse__Output as _berth_admin_v1_ImportImageResponse__Output } from './berth/admin/v1/ImportImageResponse';
import type { ImportedImage as _berth_admin_v1_ImportedImage, ImportedImage__Output as _berth_admin_v1_ImportedImage__Output } from './berth/admin/v1/ImportedImage';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  berth: {
    admin: {
      v1: {
        Admin: SubtypeConstructor<typeof grpc.Client, _berth_admin_v1_AdminClient> & { service: _berth_admin_v1_AdminDefinition }
        ImportImageRequest: MessageTypeDefinition<_berth_admin_v1_ImportImageRequest, _berth_admin_v1_ImportImageRequest__Output>
        ImportImageResponse: MessageTypeDefinition<_berth_admin_v1_ImportImageResponse, _berth_admin_v1_ImportImageResponse__Output>
        ImportedImage: MessageTypeDefinition<_berth_admin_v1_ImportedImage, _berth_admin_v1_ImportedImage__Output>
      }
    }
  }
}

