// Original file: api/ttrpc/request.proto

import type { KeyValue as _ttrpc_KeyValue, KeyValue__Output as _ttrpc_KeyValue__Output } from '../ttrpc/KeyValue';
import type { Long } from '@grpc/proto-loader';

export interface Request {
  'service'?: (string);
  'method'?: (string);
  'payload'?: (Buffer | Uint8Array | string);
  'timeout_nano'?: (number | string | Long);
  'metadata'?: (_ttrpc_KeyValue)[];
}

export interface Request__Output {
  'service': (string);
  'method': (string);
  'payload': (Buffer);
  'timeout_nano': (string);
  'metadata': (_ttrpc_KeyValue__Output)[];
}
