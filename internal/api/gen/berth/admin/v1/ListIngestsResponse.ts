// Original file: api/berth/admin/v1/admin.proto

import type { Ingest as _berth_admin_v1_Ingest, Ingest__Output as _berth_admin_v1_Ingest__Output } from '../../../berth/admin/v1/Ingest';

export interface ListIngestsResponse {
  'ingests'?: (_berth_admin_v1_Ingest)[];
}

export interface ListIngestsResponse__Output {
  'ingests': (_berth_admin_v1_Ingest__Output)[];
}
