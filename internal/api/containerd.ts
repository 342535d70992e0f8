// protobufjs codecs for the containerd-facing protos (ttRPC frames, google.rpc.Status, the Runtime v2
// Task API, task events, runc options). grpc-js never sees these messages: they travel over ttRPC,
// so we encode/decode them ourselves. Field names stay as in the .proto (keepCase) so the objects
// match the types generated under internal/api/gen.
import * as protobuf from 'protobufjs';
import { invalidArgument } from '../errdefs/errors';
import type { Any__Output } from './gen/google/protobuf/Any';
import { loadProtoRoot } from './proto_root';

/** What berth speaks over ttRPC; `make build` turns these into a JSON descriptor (proto_root.ts). */
export const CONTAINERD_PROTO_FILES = [
  'ttrpc/request.proto',
  'google/rpc/status.proto',
  'containerd/types/mount.proto',
  'containerd/v1/types/task.proto',
  'containerd/task/v2/shim.proto',
  'containerd/events/task.proto',
  'containerd/runc/options/oci.proto',
  'containerd/services/ttrpc/events/v1/events.proto',
];

/** Options that make decoded objects look like the generated `__Output` types. */
const TO_OBJECT: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  defaults: true,
  arrays: true,
  objects: true,
  oneofs: true,
};

let cachedRoot: protobuf.Root | undefined;

export function containerdRoot(): protobuf.Root {
  cachedRoot ??= loadProtoRoot('containerd', CONTAINERD_PROTO_FILES);
  return cachedRoot;
}

/** Encoder/decoder for one message type, typed with the generated input and output shapes. */
export interface MessageCodec<In, Out> {
  readonly fullName: string;
  encode(value: In): Buffer;
  decode(bytes: Uint8Array): Out;
}

const codecCache = new Map<string, MessageCodec<unknown, unknown>>();

export function codec<In, Out>(fullName: string): MessageCodec<In, Out> {
  const hit = codecCache.get(fullName);
  if (hit) return hit as MessageCodec<In, Out>;
  const type = containerdRoot().lookupType(fullName);
  const made: MessageCodec<In, Out> = {
    fullName,
    encode(value: In): Buffer {
      const message = type.fromObject(value as Record<string, unknown>);
      return Buffer.from(type.encode(message).finish());
    },
    decode(bytes: Uint8Array): Out {
      const message = type.decode(bytes);
      return type.toObject(message, TO_OBJECT) as Out;
    },
  };
  codecCache.set(fullName, made as MessageCodec<unknown, unknown>);
  return made;
}

// containerd's typeurl registers its own messages under their bare proto names; other writers use
// the Google prefix. Accept both when reading, write the bare form as containerd does.
const GOOGLE_PREFIX = 'type.googleapis.com/';

export function typeNameOfUrl(typeUrl: string): string {
  return typeUrl.startsWith(GOOGLE_PREFIX) ? typeUrl.slice(GOOGLE_PREFIX.length) : typeUrl.replace(/^.*\//, '');
}

/** Packs `value` as a google.protobuf.Any whose type_url is the message's full name. */
export function packAny<In>(fullName: string, value: In): Any__Output {
  return { type_url: fullName, value: codec<In, unknown>(fullName).encode(value) };
}

/** Unpacks an Any if its type is `fullName`; throws InvalidArgument naming both types otherwise. */
export function unpackAny<Out>(fullName: string, any: Any__Output): Out {
  const got = typeNameOfUrl(any.type_url);
  if (got !== fullName) throw invalidArgument(`any: expected type ${fullName}, got ${any.type_url}`);
  return codec<unknown, Out>(fullName).decode(any.value);
}

/** Whether the loaded protos know this type name (for decoding Anys of unknown provenance). */
export function hasType(fullName: string): boolean {
  try {
    containerdRoot().lookupType(fullName);
    return true;
  } catch {
    return false;
  }
}

/** Encodes a bare google.protobuf.Any (as the shim reads runtime options from stdin at start). */
export function encodeAny(any: Any__Output): Buffer {
  return codec<Any__Output, Any__Output>('google.protobuf.Any').encode(any);
}

// Full names used across layers, so a typo is a compile error rather than a lookup failure.
export const TypeNames = {
  RuncOptions: 'containerd.runc.v1.Options',
  TtrpcRequest: 'ttrpc.Request',
  TtrpcResponse: 'ttrpc.Response',
  RpcStatus: 'google.rpc.Status',
  Empty: 'google.protobuf.Empty',
  ForwardRequest: 'containerd.services.events.ttrpc.v1.ForwardRequest',
  Envelope: 'containerd.types.Envelope',
} as const;
