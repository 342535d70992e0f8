// grpc-js service definitions made from protobufjs services. Messages convert as `make gen` describes
// them (and as proto-loader would): field names as in the .proto, 64-bit integers as decimal strings,
// enums as their names, defaults filled in. We build these ourselves instead of through proto-loader:
// it serialises a descriptor for every message type (and brings a second protobufjs), which cost
// berthd about 20 MiB of resident memory for nothing grpc-js uses.
import type * as grpc from '@grpc/grpc-js';
import type * as protobuf from 'protobufjs';
import { listEncoder } from './list_encoding';
import type { MethodShape } from './method_types';

/** How decoded messages are shaped (the options `make gen` gives proto-loader-gen-types). */
export const CONVERSION_OPTIONS: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

/** lodash-style camelCase of a method name ("ImageFSInfo" -> "imageFsInfo"), as proto-loader names the alias. */
function camelCase(name: string): string {
  const words = name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [name];
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('');
}

/**
 * The encoder of `type`. A frozen message (a handler answering the same unchanged object call after
 * call, as ImageFsInfo does between measurements) is encoded once and its bytes kept while it lives;
 * grpc-js copies them into each frame.
 */
function serializer(type: protobuf.Type): grpc.serialize<unknown> {
  const encode = listEncoder(type) ?? ((value: Record<string, unknown>) => Buffer.from(type.encode(type.fromObject(value)).finish()));
  const kept = new WeakMap<object, Buffer>();
  return (value) => {
    if (Array.isArray(value)) throw new Error(`cannot serialize an array as ${type.fullName.slice(1)}`);
    const message = value as Record<string, unknown>;
    if (!Object.isFrozen(message)) return encode(message);
    let bytes = kept.get(message);
    if (bytes === undefined) {
      bytes = encode(message);
      kept.set(message, bytes);
    }
    return bytes;
  };
}

function deserializer(type: protobuf.Type): grpc.deserialize<unknown> {
  return (bytes) => type.toObject(type.decode(bytes), CONVERSION_OPTIONS);
}

/**
 * The grpc-js definition of `service`. With `requestsAs` (a newer package whose messages are a wire
 * superset of `service`'s), requests are decoded as the request type of the same-named method there,
 * so handlers written for the newer package see exactly the shape its own clients produce (its
 * defaults for fields the older package lacks); responses are still encoded as `service`'s own types,
 * which drops what the older package has no field for.
 */
export function serviceDefinition(service: protobuf.Service, requestsAs?: protobuf.Service): grpc.ServiceDefinition {
  const name = service.fullName.slice(1); // protobufjs full names start with "."
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const method of service.methodsArray) {
    const counterpart = requestsAs === undefined ? method : requestsAs.methods[method.name];
    if (counterpart === undefined) throw new Error(`berth: ${requestsAs!.fullName.slice(1)} has no ${method.name} to serve ${name}/${method.name}`);
    const request = counterpart.resolvedRequestType as protobuf.Type;
    const response = method.resolvedResponseType as protobuf.Type;
    definition[method.name] = {
      path: `/${name}/${method.name}`,
      requestStream: method.requestStream === true,
      responseStream: method.responseStream === true,
      requestSerialize: serializer(request),
      requestDeserialize: deserializer(request),
      responseSerialize: serializer(response),
      responseDeserialize: deserializer(response),
      originalName: camelCase(method.name),
    };
  }
  return definition;
}

/** A type's two converters, made together on first use. */
function converters(type: () => protobuf.Type): () => { serialize: grpc.serialize<unknown>; deserialize: grpc.deserialize<unknown> } {
  let made: { serialize: grpc.serialize<unknown>; deserialize: grpc.deserialize<unknown> } | undefined;
  return () => {
    if (made === undefined) {
      const resolved = type();
      made = { serialize: serializer(resolved), deserialize: deserializer(resolved) };
    }
    return made;
  };
}

/**
 * A definition with the paths and streaming kinds of `methods` at once, and each method's request
 * and response types from `typeOf` only when a message of that type is first converted: grpc-js
 * takes a service's converters when it is added, so the types behind them can wait until they are
 * used (a server decodes requests and encodes responses only, a client the other way round).
 */
export function lazyServiceDefinition(
  fullName: string,
  methods: readonly MethodShape[],
  typeOf: (method: string, which: 'request' | 'response') => protobuf.Type,
): grpc.ServiceDefinition {
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const m of methods) {
    const request = converters(() => typeOf(m.name, 'request'));
    const response = converters(() => typeOf(m.name, 'response'));
    definition[m.name] = {
      path: `/${fullName}/${m.name}`,
      requestStream: m.requestStream,
      responseStream: m.responseStream,
      requestSerialize: (value) => request().serialize(value),
      requestDeserialize: (bytes) => request().deserialize(bytes),
      responseSerialize: (value) => response().serialize(value),
      responseDeserialize: (bytes) => response().deserialize(bytes),
      originalName: camelCase(m.name),
    };
  }
  return definition;
}
