// What each service method of a root needs of its message types, worked out at build time (with
// protobufjs resolving every reference) and kept in the root's descriptor, so that berthd can build
// one method's types alone (method_roots.ts).
import * as protobuf from 'protobufjs';

/** A method's name and streaming kinds, as grpc-js needs them to route. */
export interface MethodShape {
  name: string;
  requestStream: boolean;
  responseStream: boolean;
}

/** Full names (".pkg.Type") of the types a method's request and its response need, each its own type first. */
export interface MethodTypes {
  request: string[];
  response: string[];
}

/** `type` and every message or enum type its fields (nested messages' fields too) refer to. */
function typeClosure(type: protobuf.Type): string[] {
  const names = new Set<string>();
  const visit = (t: protobuf.Type | protobuf.Enum) => {
    if (names.has(t.fullName)) return;
    names.add(t.fullName);
    if (!(t instanceof protobuf.Type)) return;
    for (const field of t.fieldsArray) {
      const resolved = field.resolve().resolvedType;
      if (resolved) visit(resolved);
    }
  };
  visit(type);
  return [...names];
}

function services(ns: protobuf.NamespaceBase, into: protobuf.Service[] = []): protobuf.Service[] {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Service) into.push(nested);
    else if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) services(nested, into);
  }
  return into;
}

/** For every method of every service of `root` (resolved): "<service>/<method>" -> its types. */
export function methodTypeClosures(root: protobuf.Root): Record<string, MethodTypes> {
  const out: Record<string, MethodTypes> = {};
  for (const service of services(root)) {
    for (const method of service.methodsArray) {
      method.resolve();
      out[`${service.fullName.slice(1)}/${method.name}`] = {
        request: typeClosure(method.resolvedRequestType!),
        response: typeClosure(method.resolvedResponseType!),
      };
    }
  }
  return out;
}
